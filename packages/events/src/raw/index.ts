export * from './wellFormed.js';
export * from './reserved.js';
export * from './appendRaw.js';
