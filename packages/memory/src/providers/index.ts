export * from './mutation.js';
export * from './backoff.js';
export * from './statusEvents.js';
export * from './statusStore.js';
export * from './fanOut.js';
