/** The viewer's DOM-free modules (command engine, model, layers, references, paging, tokens). */
export { ViewerEngine, type BackendPort, type DisplayPort } from './engine.ts';
export { buildModel, networkInfo, type NetworkJson, type NetworkModel } from './model.ts';
export { computeDisplay, makeLayer, type Display } from './layers.ts';
export { resolveRef, requireOne, buildLabelIndex } from './refs.ts';
export { findNodes } from './find.ts';
export { CommandQueue } from './queue.ts';
export { TokenManager } from './tokens.ts';
export { CommandError } from './errors.ts';
