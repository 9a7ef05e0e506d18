/**
 * Small, fast, seeded PRNG for randomised kernels: xoshiro128** (Blackman & Vigna 2018,
 * https://prng.di.unimi.it/), its 128-bit state filled from a 32-bit seed by splitmix32.
 * Same seed, same stream, on every platform (32-bit integer arithmetic only via Math.imul).
 */
export interface Rng {
  /** Next uniform 32-bit unsigned integer. */
  nextU32(): number;
  /** Uniform float in [0, 1) with 32 bits of randomness. */
  random(): number;
  /** Uniform integer in [0, bound) (bound ≥ 1), unbiased (rejection). */
  int(bound: number): number;
  /** Fisher–Yates shuffle of arr[0..len) in place (len defaults to arr.length). */
  shuffle(arr: Int32Array | number[], len?: number): void;
}

/** splitmix32 step: a well-mixed 32-bit value from a 32-bit counter. */
export function splitmix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Derives an independent sub-seed (e.g. for run r of a multi-start algorithm). */
export function subSeed(seed: number, k: number): number {
  return splitmix32((seed ^ Math.imul(k + 1, 0x27d4eb2d)) >>> 0);
}

export function createRng(seed: number): Rng {
  let x = seed >>> 0;
  let s0 = (x = splitmix32(x));
  let s1 = (x = splitmix32(x));
  let s2 = (x = splitmix32(x));
  let s3 = splitmix32(x);
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  const nextU32 = (): number => {
    const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return r;
  };
  const int = (bound: number): number => {
    if (bound <= 1) return 0;
    if (bound > 0x100000000) return Math.floor(nextU32() / 0x100000000 * bound);
    const limit = 0x100000000 - (0x100000000 % bound);
    let r = nextU32();
    while (r >= limit) r = nextU32();
    return r % bound;
  };
  return {
    nextU32,
    random: () => nextU32() / 0x100000000,
    int,
    shuffle(arr, len = arr.length) {
      for (let i = len - 1; i > 0; i--) {
        const j = int(i + 1);
        const t = arr[i];
        arr[i] = arr[j];
        arr[j] = t;
      }
    },
  };
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
