import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HIDE_EDGES_ON_MOVE_FROM, HIDE_LABELS_ON_MOVE_FROM, SOFTWARE_FAST_PROGRAMS_FROM, isSoftwareRenderer, renderProfile } from './render-profile.ts';

test('software WebGL renderers are recognised by name, GPUs are not', () => {
  assert.equal(isSoftwareRenderer('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)'), true);
  assert.equal(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)'), true);
  assert.equal(isSoftwareRenderer('ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0)'), true);
  assert.equal(isSoftwareRenderer('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)'), false);
  assert.equal(isSoftwareRenderer('Apple M2'), false);
});

test('small networks keep the antialiased programs and every frame whole', () => {
  for (const software of [true, false]) {
    assert.deepEqual(renderProfile(40, 60, software), { fastPrograms: false, hideEdgesOnMove: false, hideLabelsOnMove: false });
  }
});

test('software WebGL: point and line programs from the threshold, edges then labels left out while moving', () => {
  assert.equal(renderProfile(SOFTWARE_FAST_PROGRAMS_FROM - 1, 0, true).fastPrograms, false);
  assert.equal(renderProfile(SOFTWARE_FAST_PROGRAMS_FROM - 10, 10, true).fastPrograms, true);
  assert.deepEqual(renderProfile(10_000, 50_000, true), { fastPrograms: true, hideEdgesOnMove: true, hideLabelsOnMove: false });
  assert.deepEqual(renderProfile(100_000, 500_000, true), { fastPrograms: true, hideEdgesOnMove: true, hideLabelsOnMove: true });
  assert.equal(renderProfile(1_000, HIDE_EDGES_ON_MOVE_FROM.software - 1, true).hideEdgesOnMove, false);
});

test('a GPU keeps the instanced programs; only very large networks drop edges and labels while moving', () => {
  assert.deepEqual(renderProfile(10_000, 50_000, false), { fastPrograms: false, hideEdgesOnMove: false, hideLabelsOnMove: false });
  assert.deepEqual(renderProfile(HIDE_LABELS_ON_MOVE_FROM.gpu, HIDE_EDGES_ON_MOVE_FROM.gpu, false), { fastPrograms: false, hideEdgesOnMove: true, hideLabelsOnMove: true });
});
