export { migrateStores } from './migrate.js';
export { LEASE_STREAM, LEASE_TYPE, PLACEHOLDER_TYPE, migrationNames } from './names.js';
export { DEFAULT_LEASE_TTL_MS, acquireLease, type Lease, type LeaseOptions } from './lease.js';
export { migrationLeaseLost, migrationRunning, type LeaseHolder } from './errors.js';
export type { MigrationOptions, MigrationPhase, MigrationProgress, MigrationSummary, SourceChainBreak, StreamMismatch } from './types.js';
