export { startEsdbTestServer, type EsdbTestServer, type EsdbTestServerOptions } from './server.js';
export { openEsdbTestStore } from './testStore.js';
