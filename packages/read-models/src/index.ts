export type { ReadModel } from './readModel.js';
export { parseSince } from './since.js';
export * from './search/index.js';
export { readModelFaulted, rebuildFaulted } from './errors.js';
export * from './machinery/index.js';
export * from './catalog/index.js';
