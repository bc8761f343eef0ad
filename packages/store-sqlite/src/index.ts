export { openSqliteStore, type SqliteStoreOptions, type Durability, type CommitHook } from './sqliteStore.js';
export { SCHEMA_VERSION, type MigrationProgress } from './schema.js';
export { ID_BATCH } from './idIndex.js';
