import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import {
  recordedFromText,
  catchUpSubscription,
  changeNotifier,
  checkDeleteExpected,
  decideAppend,
  HASH,
  matchesFilter,
  sealedTexts,
  storeUnavailable,
  streamDeleted,
  streamNotFound,
  validateEvents,
  withinBytes,
  withRetry,
  type CatchUpPage,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type StreamState,
} from '@session-ledger/core';
import { mapped } from './errors.js';
import { checkedStateRow, damaged } from './damaged.js';
import { assertLedgerFile, migrate, type MigrationProgress } from './schema.js';
import { enableWal } from './wal.js';
import { groupCommit } from './groupCommit.js';
import { eagerScheduler, turnScheduler } from './flushScheduler.js';
import { nextPositions } from './positions.js';
import { idIndex } from './idIndex.js';
import { headTracker } from './headTracker.js';
import { streamStates } from './streamStates.js';
import { openFailure, refuseForeignReader } from './openFailure.js';
import { versionWatch } from './versionWatch.js';
import { prepareStatements, type EventRow, type StreamRow } from './statements.js';
import { recordDeletion } from './log/deletion.js';
import { sqliteEventLog } from './log/eventLog.js';
import { indexCheck } from './indexes/run.js';
import { logStatements } from './log/statements.js';
import { storedChainHash } from './log/tables.js';
import { logWriter } from './log/writer.js';

export type Durability = 'normal' | 'full';

export interface SqliteStoreOptions {
  /** normal (default): WAL with synchronous=NORMAL; full: every commit is fsynced. */
  durability?: Durability;
  /** Create the file when it is missing. Default true; false makes a missing file an error. */
  create?: boolean;
  /** How often a live subscription looks for commits made by other processes. */
  pollMs?: number;
  busyTimeoutMs?: number;
  /**
   * Called after each group commit with the number of appends it carried (a diagnostic and test
   * seam: appends submitted in one turn of the event loop share one transaction).
   */
  onGroupCommit?: (appends: number) => void;
  /**
   * Read models kept inline (e.g. @session-ledger/read-models): called inside the append's own
   * savepoint after its events are inserted, and inside a delete's transaction, so what they write
   * commits or rolls back with the events. The store knows nothing of what they keep.
   */
  onCommit?: CommitHook;
  /** Told how a migration that reads every event advances (a progress bar on a terminal). */
  onMigration?: MigrationProgress;
}

/** A hook running in the store's write transactions (see SqliteStoreOptions.onCommit). */
export interface CommitHook {
  /** Once, when the file is open and migrated. */
  init(db: Database.Database): void;
  /**
   * The events one append inserted, in position order. Absent when no read model is kept inline:
   * the append then builds no RecordedEvent (a parse of each event's texts, ~7 us of CPU a message).
   */
  appended?(db: Database.Database, events: RecordedEvent[]): void;
  /** A stream was deleted or tombstoned (its events are gone). */
  erased(db: Database.Database, stream: string): void;
}

/** An event as the row stores it: its JSON serialised when the append is called. */
interface EventText {
  id: string;
  type: string;
  data: string;
  metadata: string;
  /** The chain hash the ledger computed (metadata.hash), which the log leaf commits to. */
  hash: string | undefined;
}
/** The texts when the ledger already wrote them (sealedTexts): the data's, and the usual event's metadata's. */
const toText = (event: EventData, dataText: string | undefined, metadataText: string | undefined): EventText => {
  const hash = event.metadata?.[HASH];
  return {
    id: event.id,
    type: event.type,
    data: dataText ?? JSON.stringify(event.data),
    metadata: metadataText ?? JSON.stringify(event.metadata ?? {}),
    hash: typeof hash === 'string' ? hash : undefined,
  };
};

/**
 * How long after another connection's commit a group takes the write lock only when it is free,
 * waiting for it on the event loop (groupCommit.ts): long enough to cover a steady writer in another
 * process, while a store written by one process alone never pays the two statements it costs.
 */
const CONTENDED_MS = 1000;

const MAX = BigInt(Number.MAX_SAFE_INTEGER);
/** The highest position or revision SQLite's INTEGER holds: a subscription may start after it, nothing follows it. */
const LAST_INTEGER = 2n ** 63n - 1n;
const limitOf = (maxCount: number | undefined) => (maxCount === undefined ? MAX : BigInt(maxCount));

/** The embedded default: one SQLite file in WAL mode, shared safely by several processes. */
export const openSqliteStore = (path: string, options: SqliteStoreOptions = {}): EventStore => {
  if (options.create === false && path !== ':memory:' && !existsSync(path)) {
    throw storeUnavailable(`No ledger at ${path}`, 'ENOENT');
  }
  refuseForeignReader(path);
  let db: Database.Database;
  let opened: Database.Database | undefined;
  try {
    db = opened = new Database(path, { fileMustExist: options.create === false });
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    assertLedgerFile(db);
    enableWal(db, options.busyTimeoutMs ?? 5000);
    db.pragma(`synchronous = ${options.durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('secure_delete = ON');
    db.pragma('cache_size = -65536');
    db.pragma('foreign_keys = ON');
    migrate(db, options.onMigration);
    options.onCommit?.init(db);
  } catch (error) {
    opened?.close(); // a refused file is not held open
    throw storeUnavailable(openFailure(path, error as Error), (error as { code?: string }).code);
  }
  // Each statement is prepared here: a table or column dropped behind the store's back is damage (exit 4), not a bug.
  const { sql, positions, ids, logSql } = (() => {
    try {
      return mapped(() => ({ sql: prepareStatements(db), positions: nextPositions(db), ids: idIndex(db), logSql: logStatements(db) }));
    } catch (error) {
      db.close();
      throw error;
    }
  })();
  const leaves = logWriter(logSql);
  const hook = options.onCommit;
  const appended = hook?.appended?.bind(hook);
  const changes = changeNotifier();
  const pollMs = options.pollMs ?? 25;
  const dataVersion = () => db.pragma('data_version', { simple: true }) as number;

  const streamState = (name: string): StreamState | undefined => {
    const row = sql.stream.get(name) as StreamRow | undefined;
    if (!row) {
      // Every stream that holds events has a row: one gone would make the stream look new (benchmark: only a stream's first append pays this probe).
      const last = sql.lastEventRevision.get(name) as bigint | null;
      if (last !== null) throw damaged(`stream ${JSON.stringify(name)} holds events through revision ${last} but has no state row`);
      return undefined;
    }
    checkedStateRow(name, row);
    return { lastRevision: row.last_revision, firstLive: row.first_live, tombstoned: row.tombstoned !== 0n };
  };

  const readable = (name: string): StreamState => {
    const state = streamState(name);
    if (state?.tombstoned) throw streamDeleted(name);
    if (!state || state.lastRevision < state.firstLive) throw streamNotFound(name);
    return state;
  };

  /** The states appends decide on, kept across appends while no other connection commits (streamStates.ts). */
  const states = streamStates(streamState);
  /** Whether another connection committed since this one's last append: what is kept is dropped then. */
  const others = versionWatch(db);
  /** What is kept between appends (the states, the next position and the log's size, how far ids are indexed), dropped together. */
  const forgetKept = () => {
    states.forget();
    positions.forget();
    ids.forget();
  };
  /** What a rollback of this connection's writes leaves stale in memory: the log's last tile, what is kept. */
  const rolledBack = () => {
    leaves.forget();
    forgetKept();
  };

  /** Decides and writes one append; runs inside a group commit's transaction (see groupCommit.ts). */
  const append = (name: string, rows: EventText[], expected: ExpectedRevision) => {
    try {
      return decideAndWrite(name, rows, expected);
    } catch (error) {
      rolledBack(); // its savepoint (or, alone, its transaction) is rolled back with its leaves
      throw error;
    }
  };

  /**
   * The commit time, as `new Date().toISOString()` gives it, made once a millisecond (appends in
   * the same millisecond share the text: benchmark row "sqlite single-event appends with the log
   * commitment", issue 13; about 0.5 us an append).
   */
  let createdAt = Number.NaN;
  let createdText = '';
  const createdNow = (): string => {
    const now = Date.now();
    if (now !== createdAt) {
      createdAt = now;
      createdText = new Date(now).toISOString();
    }
    return createdText;
  };

  /** When this connection last saw another's commit (not its own first look): groups try the lock without waiting for a while after (groupCommit.ts). */
  let othersWroteAt = Number.NEGATIVE_INFINITY;
  let looked = false;
  const decideAndWrite = (name: string, rows: EventText[], expected: ExpectedRevision) => {
    if (others.moved()) {
      forgetKept();
      if (looked) othersWroteAt = Date.now();
    }
    looked = true;
    const state = states.get(name);
    const decision = decideAppend(
      name,
      state,
      rows, // the rules look at ids and count only
      expected,
      (revision) => (state && revision >= state.firstLive ? (sql.idAt.get(name, revision) as string | undefined) : undefined),
      (id) => (state ? ids.revisionOf(name, id, state.firstLive) : undefined),
    );
    if (decision.kind === 'idempotent') {
      const position = sql.positionAt.get(name, decision.lastRevision) as bigint;
      return { nextExpectedRevision: decision.lastRevision, position, written: false };
    }
    const created = createdNow();
    let position = 0n;
    let revision = decision.firstRevision;
    const recorded: RecordedEvent[] = [];
    // The log's size, read once with the next position: inside the write transaction only this append adds leaves.
    let next = rows.length > 0 ? positions.next() : 0n;
    let leaf = rows.length > 0 ? positions.logSize() : undefined;
    for (const row of rows) {
      sql.insertEvent.run(next, name, revision, row.id, row.type, row.data, row.metadata, created);
      position = next;
      next += 1n;
      // The log leaf, in the append's own savepoint: a refused append leaves none.
      const hash = row.hash ?? storedChainHash({ stream: name, revision, id: row.id, type: row.type, data: row.data, metadata: row.metadata });
      leaf = leaves.append(position, name, revision, hash, created, leaf) + 1;
      if (appended) recorded.push(recordedFromText({ ...row, stream: name, revision, position, created }));
      revision += 1n;
    }
    const last = revision - 1n;
    if (!state) sql.upsertStream.run(name, last, 0n, 0n); // later appends leave the row alone (see statements.ts)
    if (appended && recorded.length > 0) appended(db, recorded);
    if (rows.length > 0) {
      states.wrote(name, { lastRevision: last, firstLive: state?.firstLive ?? 0n, tombstoned: false });
      positions.wrote(next, leaf!);
      ids.wrote(name, decision.firstRevision, rows, position);
    }
    return { nextExpectedRevision: last, position, written: rows.length > 0 };
  };

  // Under FULL every commit pays an fsync: groups wait for the turn (flushScheduler.ts).
  const lockWait = { contended: () => Date.now() - othersWroteAt < CONTENDED_MS, timeoutMs: options.busyTimeoutMs ?? 5000 };
  const group = groupCommit(db, options.onGroupCommit, rolledBack, options.durability === 'full' ? turnScheduler() : eagerScheduler(), lockWait);
  const heads = headTracker(db, streamState);

  const remove = db.transaction((name: string, expected: ExpectedRevision, tombstone: boolean) => {
    const state = streamState(name);
    checkDeleteExpected(name, state, expected);
    const last = state?.lastRevision ?? -1n;
    const deletion = recordDeletion(logSql, name, state, tombstone);
    sql.eraseStream.run(name);
    sql.eraseStreamIds.run(name);
    sql.upsertStream.run(name, last, last + 1n, tombstone ? 1n : 0n);
    hook?.erased(db, name);
    return { position: null, deletion };
  });

  /** EventStore.tombstoneStreams: every one or none (a refusal rolls back the ones before it; each `remove` nests as a savepoint). */
  const removeAll = db.transaction((items: ReadonlyArray<{ stream: string; expectedRevision: ExpectedRevision }>) =>
    items.map(({ stream, expectedRevision }) => remove(stream, expectedRevision, true)),
  );

  /** EventStore.revisionOfId: the live revision holding `id`, through the id index and its backlog (idIndex.ts), in one snapshot. */
  const revisionOfIdOnce = db.transaction((name: string, id: string): bigint | undefined => {
    if (others.moved()) forgetKept();
    const state = streamState(name);
    return state && !state.tombstoned ? ids.revisionOf(name, id, state.firstLive) : undefined;
  });

  /** One snapshot: the stream's state and its rows (a transaction function made once, not per read). */
  const readStreamOnce = db.transaction((name: string, opts: ReadStreamOptions) => {
    const state = readable(name);
    const backwards = opts.direction === 'backwards';
    const from = opts.fromRevision ?? (backwards ? 'end' : 'start');
    const limit = limitOf(opts.maxCount);
    if (backwards) {
      if (from === 'start') return [];
      return readRows(sql.backwards.all(name, from === 'end' ? state.lastRevision : from, limit));
    }
    if (from === 'end') return [];
    const start = from === 'start' ? state.firstLive : from;
    return readRows(sql.forwards.all(name, start, limit));
  });

  const afterWrite = <T>(result: T): T => {
    changes.notify();
    return result;
  };

  const readRows = (rows: unknown[]) => (rows as EventRow[]).map(recordedFromText);
  /** A page of history read row by row until `maxBytes` of stored text (catchUp.ts): rows past it are never fetched. */
  const pageOf = (rows: Iterable<unknown>, max: number, maxBytes: number): CatchUpPage => {
    const page = withinBytes(rows as Iterable<EventRow>, max, maxBytes, (row) => row.data.length + row.metadata.length);
    return { events: page.rows.map(recordedFromText), more: page.more };
  };

  const waitForChange = (token: unknown, signal: AbortSignal) => {
    const { local, data } = token as { local: number; data: number };
    if (local !== changes.version()) return Promise.resolve();
    return changes.wait(local, signal, pollMs, () => !db.open || mapped(dataVersion) !== data);
  };
  const changeToken = () => ({ local: changes.version(), data: mapped(dataVersion) });

  const store: EventStore = {
    name: `sqlite:${path}`,
    // Not an async function: the group's own promise is the answer, without a second one resolved
    // after it (benchmark row "sqlite single-event appends with the log commitment", issue 13).
    appendToStream(name, events, opts = {}) {
      let rows: EventText[];
      try {
        validateEvents(events);
        // The events as they are now (the caller may reuse its objects before the group commits),
        // decided and written inside the next group's transaction, answered after its COMMIT.
        // The ledger's sealed events come with the texts their chain hashes were computed over.
        const texts = sealedTexts(events);
        rows = events.map((event, index) => toText(event, texts?.texts[index], texts?.metadataTexts?.[index]));
      } catch (error) {
        return Promise.reject(error);
      }
      const expected = opts.expectedRevision ?? 'any';
      return group.submit(
        () => append(name, rows, expected),
        (done) => {
          if (!done.written) return;
          heads.wrote(name, done.nextExpectedRevision);
          changes.notify();
        },
      );
    },
    async readStream(name: string, opts: ReadStreamOptions = {}) {
      return withRetry(async () => mapped(() => readStreamOnce(name, opts)));
    },
    async readAll(opts: ReadAllOptions = {}) {
      return withRetry(async () =>
        mapped(() => {
          const backwards = opts.direction === 'backwards';
          const from = opts.fromPosition ?? (backwards ? 'end' : 'start');
          const limit = limitOf(opts.maxCount);
          if (backwards) {
            if (from === 'start') return [];
            return readRows(sql.allBackwards.all(from === 'end' ? MAX : from, limit));
          }
          if (from === 'end') return [];
          return readRows(sql.allForwards.all(from === 'start' ? 0n : from, limit));
        }),
      );
    },
    async deleteStream(name, opts = {}) {
      group.flush(); // appends called before the delete are written before it
      heads.forget(name);
      leaves.forget();
      forgetKept();
      return afterWrite(mapped(() => remove.immediate(name, opts.expectedRevision ?? 'any', false)));
    },
    async tombstoneStream(name, opts = {}) {
      group.flush();
      heads.forget(name);
      leaves.forget();
      forgetKept();
      const result = afterWrite(mapped(() => remove.immediate(name, opts.expectedRevision ?? 'any', true)));
      // Erasure: secure_delete zeroes the freed pages; a checkpoint moves them out of the WAL.
      mapped(() => db.pragma('wal_checkpoint(TRUNCATE)'));
      return result;
    },
    async tombstoneStreams(items) {
      group.flush();
      for (const { stream } of items) heads.forget(stream);
      leaves.forget();
      forgetKept();
      try {
        const results = afterWrite(mapped(() => removeAll.immediate(items)));
        mapped(() => db.pragma('wal_checkpoint(TRUNCATE)'));
        return results;
      } catch (error) {
        rolledBack(); // the log's tiles and what is kept, as the rolled-back removes left them
        throw error;
      }
    },
    subscribeToStream(name, opts = {}) {
      return catchUpSubscription(
        {
          readAfter: async (after, max, maxBytes) =>
            mapped(() => {
              const state = streamState(name);
              if (state?.tombstoned) throw streamDeleted(name);
              if (!state) return { events: [], more: false };
              if (after === LAST_INTEGER) return { events: [], more: false }; // nothing can follow it
              const from = after === null ? state.firstLive : after + 1n;
              return pageOf(sql.forwards.iterate(name, from > state.firstLive ? from : state.firstLive, BigInt(max)), max, maxBytes);
            }),
          keyOf: (event) => event.revision,
          head: async () => mapped(() => (sql.lastRevision.get(name) as bigint | undefined) ?? null),
          changeToken,
          waitForChange,
        },
        opts.fromRevision ?? 'start',
      );
    },
    subscribeToAll(opts = {}) {
      return catchUpSubscription(
        {
          readAfter: async (after, max, maxBytes) =>
            // Nothing can follow the highest position (after + 1 would not bind).
            after === LAST_INTEGER ? { events: [], more: false } : withRetry(async () => mapped(() => pageOf(sql.allForwards.iterate(after === null ? 0n : after + 1n, BigInt(max)), max, maxBytes))),
          keyOf: (event) => event.position,
          head: async () => mapped(() => (sql.lastPosition.get() as bigint | null) ?? null),
          changeToken,
          waitForChange,
          accept: (event) => matchesFilter(opts.filter, event),
        },
        opts.fromPosition ?? 'start',
      );
    },
    async readCheckpoint(name) {
      return mapped(() => (sql.readCheckpoint.get(name) as bigint | undefined) ?? null);
    },
    async storeCheckpoint(name, position) {
      mapped(() => sql.storeCheckpoint.run(name, position));
    },
    unchangedSince: (name, revision, hint) => heads.unchangedSince(name, revision, hint),
    async streamState(name) {
      return withRetry(async () => mapped(() => streamState(name) ?? null));
    },
    async revisionOfId(name, id) {
      return withRetry(async () => mapped(() => revisionOfIdOnce(name, id)));
    },
    async listStreams() {
      return mapped(() =>
        (sql.listStreams.all() as Array<StreamRow & { name: string }>).map((row) => checkedStateRow(row.name, row)).map((row) => ({
          name: row.name,
          lastRevision: row.last_revision,
          firstLive: row.first_live,
          tombstoned: row.tombstoned !== 0n,
        })),
      );
    },
    log: { ...sqliteEventLog(db, logSql), indexes: indexCheck(db) },
    async close() {
      if (!db.open) return;
      group.flush(); // appends already called are committed and answered before the file closes
      db.close();
    },
  };
  return store;
};
