export * from './errors.ts';
export * from './graph/network-json.ts';
export * from './graph/csr.ts';
export * from './graph/build.ts';
export * from './metrics/types.ts';
export * from './metrics/run.ts';
export { metrics, nodeMetrics, networkMetrics, reportMetrics } from './metrics/registry.ts';
export { ENGINE_VERSION } from './version.ts';
