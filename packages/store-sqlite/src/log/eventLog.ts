import type Database from 'better-sqlite3';
import {
  chainHash,
  deletionLeafInput,
  HASH,
  eventLeafMatching,
  inclusionPath,
  invalidInput,
  leafHash,
  logDamaged,
  nodeSpans,
  notFound,
  rangeRoot,
  type DeletionRecord,
  type EventLog,
  type InclusionProof,
  type JsonObject,
  type JsonValue,
  type LogEntry,
  type StoredEventText,
  type StoredNode,
} from '@session-ledger/core';
import { mapped } from '../errors.js';
import { deletionRecordOf, type DeletionRow } from './deletionRow.js';
import type { LogStatements } from './statements.js';
import { storedChainHash } from './tables.js';
import { leafAtPosition, logSize, STORED_FROM, storedLookup } from './tree.js';
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
/** A stored hash as read: a cell that is no blob (text, a number written behind the store's back) reads as no bytes, which no hash equals. */
const bytesOf = (cell: unknown): Buffer => (Buffer.isBuffer(cell) ? cell : Buffer.alloc(0));
const numberOrNull = (value: bigint | null) => (value === null ? null : Number(value));

/**
 * A stored event's leaf input, in the form its stored leaf hash has (with its position since schema
 * version 7, or the earlier form: eventLeafMatching). A proof hands an auditor that leaf as evidence: it is refused (log_damaged) when the event
 * no longer hashes to the chain hash it carries, or its leaf input no longer hashes to its stored
 * leaf. Before, `audit prove` answered such a proof, exit 0, and the offline check accepted one
 * whose event's content had been edited (outside test, session 24).
 */
const checkedLeafInput = (index: number, event: StoredEventText, stored: Buffer): string => {
  const carried = storedChainHash(event);
  let content: string | null = null;
  try {
    const { [HASH]: _hash, ...rest } = JSON.parse(event.metadata) as JsonObject;
    content = chainHash({ stream: event.stream, revision: event.revision, id: event.id, type: event.type, data: JSON.parse(event.data) as JsonValue, metadata: rest });
  } catch {
    content = null;
  }
  if (content !== carried) throw logDamaged(index, `holds an event (${event.stream}@${event.revision}) whose content does not hash to the chain hash it carries`);
  const fields = { index, position: event.position, stream: event.stream, revision: event.revision, hash: carried, created: event.created };
  const matching = eventLeafMatching(fields, stored);
  if (!matching) throw logDamaged(index, `does not hash its event (${event.stream}@${event.revision}) as stored`);
  return matching.input;
};

/** The SQLite store's log operations; each runs in one read transaction (one snapshot). */
export const sqliteEventLog = (db: Database.Database, sql: LogStatements): EventLog => {
  const digest = db.transaction(() => {
    const size = logSize(sql);
    return { size, root: hex(rangeRoot(0, size, storedLookup(sql))) };
  });

  /** The tree a proof is asked in: `at` leaves, or the current tree. */
  const treeSize = (at: number | undefined): number => {
    const current = logSize(sql);
    if (at !== undefined && (!Number.isSafeInteger(at) || at < 1 || at > current)) throw invalidInput(`No tree of size ${at}: the log has ${current} leaves`, 'size');
    return at ?? current;
  };

  /**
   * The recorded deletion that erased leaf `index` (an event of `stream` at `revision`), its record
   * intact (it hashes to its deletion leaf), or log_damaged. Before, an erased event's proof was
   * answered from the leaf row alone: a row's stream and revision edited, or a deletion leaf whose
   * record was gone, gave a proof of an event that never was, exit 0 (outside test, session 25).
   */
  const erasedBy = (index: number, stream: unknown, revision: unknown, size: number, lookup: ReturnType<typeof storedLookup>): NonNullable<InclusionProof['erasedBy']> => {
    if (typeof stream !== 'string' || typeof revision !== 'bigint') throw logDamaged(index, 'names no stream and revision');
    for (const record of deletions()) {
      if (record.stream !== stream || revision < record.fromRevision || revision > record.headRevision) continue;
      if (record.firstLeaf === null || record.lastLeaf === null || index < record.firstLeaf || index > record.lastLeaf || index >= record.logSize) continue;
      const input = deletionLeafInput({ ...record, index: record.logSize });
      const [entry] = entries(record.logSize, 1);
      if (!entry?.isDeletion || !leafHash(input).equals(entry.leafHash)) continue;
      return { index: record.logSize, leafInput: input, path: record.logSize < size ? inclusionPath(record.logSize, size, lookup).map(hex) : null };
    }
    throw logDamaged(index, `held ${stream}@${revision}, whose event is gone, and no recorded deletion erased it`);
  };

  const proof = db.transaction((stream: string, revision: bigint, at?: number) => {
    const size = treeSize(at);
    const event = sql.eventAt.get(stream, revision) as StoredEventText | undefined;
    let index = event ? leafAtPosition(sql, event.position, size) : null;
    // An erased event: its leaf stays (one scan of the leaves; erased events are rarely proved).
    if (index === null) index = numberOrNull((sql.leafOfErased.get(stream, revision) as bigint | undefined) ?? null);
    if (index === null || index >= size) throw notFound('log leaf', `${stream}@${revision}${at === undefined ? '' : ` below size ${size}`}`);
    const leaf = sql.leaf.get(BigInt(index)) as EntryRow & { stream: string; revision: bigint; position: bigint };
    // A stored event whose leaf row names another event or place: the log is damaged, not the event
    // unknown (exit 3 told an auditor it was never committed), and no proof is made of a row that
    // contradicts its own leaf input (outside test, session 34, helper-95 F2).
    if (event && (leaf.stream !== stream || leaf.revision !== revision || leaf.position !== event.position)) {
      throw logDamaged(index, `names ${leaf.stream}@${leaf.revision} at position ${leaf.position}, while ${stream}@${revision} is stored at position ${event.position}`);
    }
    const lookup = storedLookup(sql);
    return {
      stream,
      revision,
      position: leaf.position,
      index,
      leafHash: hex(bytesOf(leaf.hash)),
      leafInput: event ? checkedLeafInput(index, event, bytesOf(leaf.hash)) : null,
      size,
      root: hex(rangeRoot(0, size, lookup)),
      path: inclusionPath(index, size, lookup).map(hex),
      ...(event ? {} : { erasedBy: erasedBy(index, leaf.stream, leaf.revision, size, lookup) }),
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
        leafHash: bytesOf(hash),
        event: position === null ? null : { position, stream: stream!, revision: revision!, id: id!, type: type!, data: data!, metadata: metadata!, created: created! },
        isDeletion: deletion !== null,
        deletion:
          deletionId === null
            ? null
            : { id: Number(deletionId), stream: deletionStream!, kind: kind!, fromRevision: fromRevision!, headRevision: headRevision!, headHash, firstLeaf: numberOrNull(firstLeaf), lastLeaf: numberOrNull(lastLeaf), logSize: Number(size), at: at! },
      };
    });

  const leafProof = db.transaction((index: number, at?: number): InclusionProof => {
    const size = treeSize(at);
    if (!Number.isSafeInteger(index) || index < 0 || index >= size) throw notFound('log leaf', `${index}${at === undefined ? '' : ` below size ${size}`}`);
    const [entry] = entries(index, 1);
    if (entry?.index !== index) throw logDamaged(index);
    const { event, deletion } = entry;
    const lookup = storedLookup(sql);
    const root = hex(rangeRoot(0, size, lookup));
    const proven = { stream: entry.stream, revision: entry.revision, position: entry.position, index, leafHash: hex(entry.leafHash), size, root, path: inclusionPath(index, size, lookup).map(hex) };
    if (entry.isDeletion) {
      // A deletion leaf is proven with its record, which must be there and hash to it.
      const input = deletion && deletionLeafInput({ ...deletion, index });
      if (input === null || !leafHash(input).equals(entry.leafHash)) throw logDamaged(index, deletion ? 'does not hash its deletion record as stored' : 'is a deletion whose record is gone');
      return { ...proven, leafInput: input };
    }
    if (event && event.stream === entry.stream && event.revision === entry.revision) return { ...proven, leafInput: checkedLeafInput(index, event, entry.leafHash) };
    return { ...proven, leafInput: null, erasedBy: erasedBy(index, entry.stream, entry.revision, size, lookup) };
  });

  /** The stored nodes whose last leaf lies in [from, to), from minLevel (or the first stored level) up. */
  const nodes = db.transaction((from: number, to: number, minLevel: number): StoredNode[] =>
    nodeSpans(from, to, Math.max(minLevel, STORED_FROM)).flatMap(({ level, first, last }) =>
      (sql.nodesAt.all(level, first, last) as Array<{ idx: bigint; hash: unknown }>).map((row) => ({ level, index: Number(row.idx), hash: row.hash })),
    ),
  );

  const deletions = (): DeletionRecord[] => (sql.deletions.all() as DeletionRow[]).map(deletionRecordOf);

  return {
    digest: async () => mapped(() => digest()),
    proof: async (stream, revision, size) => mapped(() => proof(stream, revision, size)),
    leafProof: async (index, size) => mapped(() => leafProof(index, size)),
    entries: async (from, max) => mapped(() => entries(from, max)),
    strays: async (bound) => mapped(() => (bound ? sql.straysAbove.all(bound.after, BigInt(bound.fromLeaf)) : sql.strays.all()) as StoredEventText[]),
    deletions: async () => mapped(deletions),
    nodes: async (from, to, minLevel) => mapped(() => nodes(from, to, minLevel)),
    // verify's range scans on worker threads, each reading the file on its own connection (not for :memory:).
    ...(db.memory ? {} : { parallel: workerScanner(db) }),
  };
};
