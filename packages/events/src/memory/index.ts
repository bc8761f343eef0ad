export * from './types.js';
export * from './schemas.js';
export * from './registry.js';
export * from './encode.js';
export * from './decode.js';
export * from './streams.js';
