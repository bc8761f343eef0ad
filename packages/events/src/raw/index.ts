export * from './wellFormed.js';
export * from './reserved.js';
