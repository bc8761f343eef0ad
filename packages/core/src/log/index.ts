export * from './leaf.js';
export * from './merkle.js';
export * from './proofs.js';
