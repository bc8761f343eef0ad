export * from './session/index.js';
