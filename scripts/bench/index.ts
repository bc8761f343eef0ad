import type { BenchArea } from './types.js';
import * as store from './store.js';
import * as memory from './memory.js';
import * as esdb from './esdb.js';
import * as hermes from './hermes.js';
import * as sessions from './sessions.js';
import * as retention from './retention.js';
import * as httpLatency from './httpLatency.js';
import * as groupCommit from './groupCommit.js';
import * as groupCommitCeilings from './groupCommitCeilings.js';
import * as auditLog from './auditLog.js';
import * as auditLive from './auditLive.js';
import * as search from './search.js';
import * as catalog from './catalog.js';

/** Every benchmark area, by the name `npm run bench -- --only <area>` takes. Add yours here. */
export const areas: Record<string, BenchArea> = {
  store,
  memory,
  esdb,
  hermes,
  sessions,
  retention,
  'http-latency': httpLatency,
  'group-commit': groupCommit,
  'group-commit-ceilings': groupCommitCeilings,
  'audit-log': auditLog,
  'audit-live': auditLive,
  search,
  catalog,
};
