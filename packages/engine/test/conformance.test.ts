// Golden-fixture conformance: every case generated from NetworkX 3.6.1 by oracle/generate.py must be
// reproduced by the engine within the case's tolerance (relative, with an absolute floor).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMetric } from '../src/metrics/run.ts';
import type { NetworkJSON } from '../src/graph/network-json.ts';

interface Case {
  metric: string;
  name: string;
  network: NetworkJSON;
  isDirected: boolean;
  params: Record<string, unknown>;
  expected: Record<string, Record<string, number | string>> | number;
  tol: number;
}

const dir = join(import.meta.dirname, 'fixtures');

export function close(actual: number, expected: number, tol: number): boolean {
  if (actual === expected) return true;
  return Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected));
}

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
  const cases = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Case[];
  test(`conformance ${file} (${cases.length} cases)`, () => {
    let checked = 0;
    for (const c of cases) {
      const label = `${c.metric} ${c.name} ${JSON.stringify(c.params)}`;
      const out = runMetric({ metric: c.metric, network: c.network, networkDirected: c.isDirected, params: c.params });
      if (typeof c.expected === 'number') {
        assert.equal(out.kind, 'network', label);
        if (out.kind === 'network') assert.ok(close(out.value, c.expected, c.tol), `${label}: got ${out.value}, expected ${c.expected}`);
        checked++;
        continue;
      }
      assert.equal(out.kind, 'node', label);
      if (out.kind !== 'node') continue;
      for (const [attr, exp] of Object.entries(c.expected)) {
        const got: Record<string, number | string> | undefined = out.values[attr];
        assert.ok(got, `${label}: attribute ${attr} missing`);
        assert.deepEqual(Object.keys(got).sort(), Object.keys(exp).sort(), `${label}: ${attr} scored nodes differ`);
        for (const [id, v] of Object.entries(exp)) {
          const a: number | string | undefined = got[id];
          if (typeof v === 'number' && typeof a === 'number') {
            assert.ok(close(a, v, c.tol), `${label}: ${attr}[${id}] = ${a}, expected ${v}`);
          } else {
            assert.equal(a, v, `${label}: ${attr}[${id}]`);
          }
        }
      }
      checked++;
    }
    assert.equal(checked, cases.length);
  });
}
