// Sparse LDLᵀ + selected inversion (kernels/sparse-ldl.ts) against a dense Gauss–Jordan inverse on random
// SPD matrices (grounded weighted Laplacians and shifted Laplacians), across the sparse/dense switch:
// all-sparse, mixed, and all-dense factorizations must give the same diag(A⁻¹) and A⁻¹·b to ~1e-12.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../src/kernels/random.ts';
import { inverseDiagonal, ldlFactor, ldlSolve, type SymMatrix } from '../src/kernels/sparse-ldl.ts';

/** Random weighted graph Laplacian on n nodes (m random edges, merged) plus `shift`·(random ≥ 0) on the diagonal. */
function randomSpd(n: number, m: number, seed: number, grounded: boolean): { A: SymMatrix; dense: Float64Array } {
  const rng = createRng(seed);
  const W = new Float64Array(n * n);
  for (let e = 0; e < m; e++) {
    const u = rng.int(n);
    const v = rng.int(n);
    if (u === v) continue;
    const w = 0.1 + 3 * rng.random();
    W[u * n + v] += w;
    W[v * n + u] += w;
  }
  // connect a spanning path so the grounded Laplacian is nonsingular
  for (let u = 1; u < n; u++) if (rng.random() < 0.5) {
    W[u * n + u - 1] += 1;
    W[(u - 1) * n + u] += 1;
  }
  for (let u = 1; u < n; u++) if (W[u * n + u - 1] === 0) {
    W[u * n + u - 1] = 0.5;
    W[(u - 1) * n + u] = 0.5;
  }
  // grounded: drop node n−1's row/column (its edges still count in the degrees); else add a random shift
  const M = grounded ? n - 1 : n;
  const dense = new Float64Array(M * M);
  const off = new Int32Array(M + 1);
  const adj: number[] = [];
  const val: number[] = [];
  const diag = new Float64Array(M);
  for (let i = 0; i < M; i++) {
    let deg = 0;
    for (let j = 0; j < n; j++) deg += W[i * n + j];
    diag[i] = grounded ? deg : deg + 0.05 * rng.random();
    dense[i * M + i] = diag[i];
    for (let j = 0; j < M; j++) {
      if (j !== i && W[i * n + j] !== 0) {
        adj.push(j);
        val.push(-W[i * n + j]);
        dense[i * M + j] = -W[i * n + j];
      }
    }
    off[i + 1] = adj.length;
  }
  return { A: { n: M, diag, off, adj: Int32Array.from(adj), val: Float64Array.from(val) }, dense };
}

/** Dense inverse by Gauss–Jordan with partial pivoting. */
function denseInverse(a: Float64Array, n: number): Float64Array {
  const M = Float64Array.from(a);
  const I = new Float64Array(n * n);
  for (let i = 0; i < n; i++) I[i * n + i] = 1;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r * n + c]) > Math.abs(M[p * n + c])) p = r;
    if (p !== c) {
      for (let k = 0; k < n; k++) {
        [M[p * n + k], M[c * n + k]] = [M[c * n + k], M[p * n + k]];
        [I[p * n + k], I[c * n + k]] = [I[c * n + k], I[p * n + k]];
      }
    }
    const piv = M[c * n + c];
    for (let k = 0; k < n; k++) {
      M[c * n + k] /= piv;
      I[c * n + k] /= piv;
    }
    for (let r = 0; r < n; r++) {
      const f = M[r * n + c];
      if (r === c || f === 0) continue;
      for (let k = 0; k < n; k++) {
        M[r * n + k] -= f * M[c * n + k];
        I[r * n + k] -= f * I[c * n + k];
      }
    }
  }
  return I;
}

const cases = [
  { n: 40, m: 50, seed: 1 },
  { n: 150, m: 300, seed: 2 },
  { n: 250, m: 400, seed: 3 },
  { n: 200, m: 1500, seed: 4 },
];

for (const { n, m, seed } of cases) {
  for (const grounded of [true, false]) {
    test(`diag(A⁻¹) and A⁻¹b equal the dense inverse's: n=${n}, m=${m}, ${grounded ? 'grounded Laplacian' : 'shifted Laplacian'}`, () => {
      const { A, dense } = randomSpd(n, m, seed, grounded);
      const N = A.n;
      const inv = denseInverse(dense, N);
      const rng = createRng(seed + 100);
      const b = Float64Array.from({ length: N }, () => rng.random() - 0.3);
      const ref = new Float64Array(N);
      for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) ref[i] += inv[i * N + j] * b[j];
      const layouts = new Set<string>();
      // all sparse (dense block of ≤ 1 node), the default switch, and all dense
      for (const denseFraction of [2, 0.3, 0]) {
        const F = ldlFactor(A, undefined, { denseFraction });
        assert.ok(F, 'factor');
        layouts.add(`${F.ns}/${F.r}`);
        assert.equal(F.ns + F.r, N);
        if (denseFraction === 0) assert.equal(F.r, N);
        if (denseFraction === 2) assert.ok(F.r <= 1);
        const z = inverseDiagonal(F);
        for (let i = 0; i < N; i++) {
          const want = inv[i * N + i];
          assert.ok(Math.abs(z[i] - want) <= 1e-12 * Math.abs(want), `diag ${i} (f=${denseFraction}): ${z[i]} vs ${want}`);
        }
        const x = Float64Array.from(b);
        ldlSolve(F, x);
        const scale = Math.max(...ref.map(Math.abs));
        for (let i = 0; i < N; i++) assert.ok(Math.abs(x[i] - ref[i]) <= 1e-12 * scale, `solve ${i} (f=${denseFraction}): ${x[i]} vs ${ref[i]}`);
      }
      assert.ok(layouts.size >= 2, `the three settings should give different sparse/dense splits: ${[...layouts]}`);
    });
  }
}

test('memory bounds: a dense block over maxDense or a sparse part over maxEntries returns null; a non-SPD matrix throws', () => {
  const { A } = randomSpd(60, 400, 9, true);
  assert.equal(ldlFactor(A, undefined, { denseFraction: 0, maxDense: 10 }), null);
  assert.ok(ldlFactor(A, undefined, { denseFraction: 0, maxDense: 59 }));
  assert.equal(ldlFactor(A, undefined, { denseFraction: 2, maxEntries: 100 }), null);
  assert.ok(ldlFactor(A, undefined, { denseFraction: 2, maxEntries: 10_000 }));
  const notSpd: SymMatrix = { ...A, diag: A.diag.map((x, i) => (i === 5 ? -1 : x)) };
  assert.throws(() => ldlFactor(notSpd), /not positive definite/);
  assert.throws(() => ldlFactor(notSpd, undefined, { denseFraction: 0 }), /not positive definite/);
});

test('checkpoint is called during factorization and selected inversion (cancellation)', () => {
  const { A } = randomSpd(300, 900, 11, true);
  let calls = 0;
  const F = ldlFactor(A, () => calls++)!;
  const afterFactor = calls;
  assert.ok(afterFactor > 0);
  inverseDiagonal(F, () => calls++);
  assert.ok(calls > afterFactor);
  assert.throws(() => ldlFactor(A, () => {
    throw new Error('cancelled');
  }), /cancelled/);
});
