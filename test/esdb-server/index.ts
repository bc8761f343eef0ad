export { startEsdbTestServer, type EsdbTestServer, type EsdbTestServerOptions } from './server.js';
export { openEsdbTestStore, type EsdbTestStore } from './testStore.js';
