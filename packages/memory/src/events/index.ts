export * from './types.js';
export * from './schemas.js';
export * from './parse.js';
