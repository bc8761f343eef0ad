export { openSqliteStore, type SqliteStoreOptions, type Durability, type CommitHook } from './sqliteStore.js';
export { SCHEMA_VERSION } from './schema.js';
