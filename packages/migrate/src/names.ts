import { sha256Hex } from '@session-ledger/core';

/**
 * The migration's own durable state lives in the target's named checkpoints: how far the copy
 * has read the source, and which soft-deleted prefixes it has rebuilt. Names depend on the
 * source, so copies from two sources into one target do not share them.
 */
export const migrationNames = (sourceName: string) => {
  const base = `migrate-${sha256Hex(sourceName).slice(0, 16)}`;
  return {
    position: base,
    /** Stored once every stand-in of a soft-deleted prefix is written (before they are deleted). */
    gap: (stream: string) => `${base}:gap:${stream}`,
    /** Stored before the first stand-in is written: the prefix is being rebuilt up to this revision. */
    intent: (stream: string) => `${base}:gap-intent:${stream}`,
  };
};
export type MigrationNames = ReturnType<typeof migrationNames>;

/** The type of the stand-in events that rebuild a soft-deleted prefix; they are deleted at once. */
export const PLACEHOLDER_TYPE = '$ledger-migration-placeholder';
