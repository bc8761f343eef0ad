export { openSqliteStore, type SqliteStoreOptions, type Durability } from './sqliteStore.js';
export { SCHEMA_VERSION } from './schema.js';
