export type { ReadModel } from './readModel.js';
export { readModelFaulted } from './errors.js';
export * from './machinery/index.js';
export * from './catalog/index.js';
