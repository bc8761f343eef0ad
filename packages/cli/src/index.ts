export { main } from './main.js';
export { openStore, defaultStoreUrl } from './openStore.js';
export { EXIT_CODES } from './exitCodes.js';
export { createProgram } from './program.js';
export { terminalSafe } from './terminalSafe.js';
export { workerPids } from './workerPids.js';
