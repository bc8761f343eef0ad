import type Database from 'better-sqlite3';
import {
  inclusionPath,
  invalidInput,
  leafInput,
  notFound,
  rangeRoot,
  type DeletionRecord,
  type EventLog,
  type LogEntry,
  type StoredEventText,
} from '@session-ledger/core';
import { mapped } from '../errors.js';
import { deletionRecordOf, type DeletionRow } from './deletionRow.js';
import type { LogStatements } from './statements.js';
import { storedChainHash } from './tables.js';
import { leafAtPosition, logSize, storedLookup } from './tree.js';
import { workerScanner } from './workerScanner.js';

interface EntryRow {
  leaf_index: bigint;
  leaf_position: bigint;
  leaf_stream: string;
  leaf_revision: bigint;
  hash: Buffer;
  position: bigint | null;
}
type EntryTuple = [
  bigint, bigint, string, bigint, Buffer,
  bigint | null, string | null, bigint | null, string | null, string | null, string | null, string | null, string | null,
  bigint | null, bigint | null, 'soft' | 'tombstone' | null, bigint | null, bigint | null, string | null, bigint | null, bigint | null, bigint | null, string | null, string | null,
];

const hex = (buffer: Buffer) => buffer.toString('hex');
const numberOrNull = (value: bigint | null) => (value === null ? null : Number(value));

/** The SQLite store's log operations; each runs in one read transaction (one snapshot). */
export const sqliteEventLog = (db: Database.Database, sql: LogStatements): EventLog => {
  const digest = db.transaction(() => {
    const size = logSize(sql);
    return { size, root: hex(rangeRoot(0, size, storedLookup(sql))) };
  });

  const proof = db.transaction((stream: string, revision: bigint, at?: number) => {
    const current = logSize(sql);
    if (at !== undefined && (!Number.isSafeInteger(at) || at < 1 || at > current)) throw invalidInput(`No tree of size ${at}: the log has ${current} leaves`, 'size');
    const size = at ?? current;
    const event = sql.eventAt.get(stream, revision) as StoredEventText | undefined;
    let index = event ? leafAtPosition(sql, event.position, size) : null;
    // An erased event: its leaf stays (one scan of the leaves; erased events are rarely proved).
    if (index === null) index = numberOrNull((sql.leafOfErased.get(stream, revision) as bigint | undefined) ?? null);
    if (index === null || index >= size) throw notFound('log leaf', `${stream}@${revision}${at === undefined ? '' : ` below size ${size}`}`);
    const leaf = sql.leaf.get(BigInt(index)) as EntryRow & { stream: string; revision: bigint; position: bigint };
    if (event && (leaf.stream !== stream || leaf.revision !== revision)) throw notFound('log leaf', `${stream}@${revision}`);
    const lookup = storedLookup(sql);
    return {
      stream,
      revision,
      position: leaf.position,
      index,
      leafHash: hex(leaf.hash),
      leafInput: event ? leafInput({ index, stream, revision, hash: storedChainHash(event), created: event.created }) : null,
      size,
      root: hex(rangeRoot(0, size, lookup)),
      path: inclusionPath(index, size, lookup).map(hex),
    };
  });

  // Rows as arrays (raw): this reads every leaf and event of the log once per verify.
  const entries = (from: number, max: number): LogEntry[] =>
    (sql.entries.raw(true).all(BigInt(from), BigInt(max)) as EntryTuple[]).map((row) => {
      const [index, leafPosition, leafStream, leafRevision, hash, position, stream, revision, id, type, data, metadata, created, deletion, deletionId] = row;
      const [, , , , , , , , , , , , , , , kind, fromRevision, headRevision, headHash, firstLeaf, lastLeaf, size, at, deletionStream] = row;
      return {
        index: Number(index),
        position: leafPosition,
        stream: leafStream,
        revision: leafRevision,
        leafHash: hash,
        event: position === null ? null : { position, stream: stream!, revision: revision!, id: id!, type: type!, data: data!, metadata: metadata!, created: created! },
        isDeletion: deletion !== null,
        deletion:
          deletionId === null
            ? null
            : { id: Number(deletionId), stream: deletionStream!, kind: kind!, fromRevision: fromRevision!, headRevision: headRevision!, headHash, firstLeaf: numberOrNull(firstLeaf), lastLeaf: numberOrNull(lastLeaf), logSize: Number(size), at: at! },
      };
    });

  const deletions = (): DeletionRecord[] => (sql.deletions.all() as DeletionRow[]).map(deletionRecordOf);

  return {
    digest: async () => mapped(() => digest()),
    proof: async (stream, revision, size) => mapped(() => proof(stream, revision, size)),
    entries: async (from, max) => mapped(() => entries(from, max)),
    strays: async (bound) => mapped(() => (bound ? sql.straysAbove.all(bound.after, BigInt(bound.fromLeaf)) : sql.strays.all()) as StoredEventText[]),
    deletions: async () => mapped(deletions),
    // verify's range scans on worker threads, each reading the file on its own connection (not for :memory:).
    ...(db.memory ? {} : { parallel: workerScanner(db) }),
  };
};
