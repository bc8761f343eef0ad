export { startEsdbTestServer, type EsdbTestServer, type EsdbTestServerOptions } from './server.js';
