import { realpathSync } from 'node:fs';
import { sha256Hex } from '@session-ledger/core';

const namesOf = (key: string) => {
  const base = `migrate-${sha256Hex(key).slice(0, 16)}`;
  return {
    position: base,
    /** Stored once every stand-in of a soft-deleted prefix is written (before they are deleted). */
    gap: (stream: string) => `${base}:gap:${stream}`,
    /** Stored before the first stand-in is written: the prefix is being rebuilt up to this revision. */
    intent: (stream: string) => `${base}:gap-intent:${stream}`,
  };
};

/**
 * The key a source's checkpoints are stored under: a SQLite source by the real path of its file
 * (so a symlink, `./x/../` or another spelling resumes the same run), any other source by its
 * name as given (an EventStoreDB URL as written).
 */
export const sourceKey = (sourceName: string): string => {
  const file = /^sqlite:(.+)$/.exec(sourceName)?.[1];
  if (!file) return sourceName;
  try {
    return `sqlite:${realpathSync(file)}`;
  } catch {
    return sourceName;
  }
};

/**
 * The migration's own durable state lives in the target's named checkpoints: how far the copy
 * has read the source, and which soft-deleted prefixes it has rebuilt. Names depend on the
 * source, so copies from two sources into one target do not share them. `older` are the names
 * earlier versions stored the same source's checkpoints under (its name as given): they are
 * still read, so a run they began resumes.
 */
export const migrationNames = (sourceName: string) => {
  const key = sourceKey(sourceName);
  return { ...namesOf(key), older: key === sourceName ? [] : [namesOf(sourceName)] };
};
export type MigrationNames = ReturnType<typeof migrationNames>;

/** A checkpoint under the current name, else under an older one (a run begun by an earlier version). */
export const readMigrationCheckpoint = async (
  store: { readCheckpoint(name: string): Promise<bigint | null> },
  names: MigrationNames,
  pick: (names: ReturnType<typeof namesOf>) => string,
): Promise<bigint | null> => {
  for (const each of [names, ...names.older]) {
    const value = await store.readCheckpoint(pick(each));
    if (value !== null) return value;
  }
  return null;
};

/** The type of the stand-in events that rebuild a soft-deleted prefix; they are deleted at once. */
export const PLACEHOLDER_TYPE = '$ledger-migration-placeholder';

/**
 * The target's migration lease (one run into a target at a time): a stream of its own, written
 * only by migrate, whose events (of a type beginning with `$`, which EventStoreDB's `$all` readers
 * skip) say which run holds the target until when. Released by a soft delete at the end of a run.
 * Never copied from a source, nor compared.
 */
export const LEASE_STREAM = 'ledger-migration-lease';
export const LEASE_TYPE = '$ledger-migration-lease';
