export type { ReadModel } from './readModel.js';
