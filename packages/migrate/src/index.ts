export { migrateStores } from './migrate.js';
export { PLACEHOLDER_TYPE, migrationNames } from './names.js';
export type { MigrationOptions, MigrationPhase, MigrationProgress, MigrationSummary, SourceChainBreak, StreamMismatch } from './types.js';
