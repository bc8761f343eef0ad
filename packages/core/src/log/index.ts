export * from './leaf.js';
export * from './merkle.js';
export * from './proofs.js';
export * from './port.js';
export * from './breaks.js';
export * from './verifyLog.js';
export * from './digest.js';
export * from './errors.js';
