export * from './session/index.js';
export * from './memory/index.js';
export * from './input.js';
export * from './raw/index.js';
