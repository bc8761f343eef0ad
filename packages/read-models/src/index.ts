export type { ReadModel } from './readModel.js';
export * from './search/index.js';
