import { parentPort, workerData } from 'node:worker_threads';
import { createLedger, isLedgerError, type ChainHead, type EventStore, type ExpectedRevision, type Ledger, type LedgerAppendResult } from '@session-ledger/core';
import { readIds } from '../ledger/readIds.js';
import type { SyncEvent } from '../ledger/syncStream.js';
import type { PlannedEvent } from '../mapping/stepEvent.js';
import { countWritten, emptyReport } from '../report.js';
import type { AppendWorkerData, FromAppender, SessionOutcome, ToAppender } from './protocol.js';
import { toWire } from './wireError.js';

/**
 * The import's append thread: opens a store of its own on the caller's ledger and brings each session
 * stream up to the plan the main thread sends, with syncStream's rules, streamed: what the stream
 * already holds must be the plan's prefix (same ids in the same places), the rest is appended in
 * batches of `batchSize` counted from the stream's head (the same appends as one thread), each
 * conditional on the exact revision before it. This thread reads the store to decide (the ids a
 * stream holds, its head); the main thread never does, so the order of writes and reads is one.
 */
const port = parentPort!;
const { opener, batchSize } = workerData as AppendWorkerData;
const send = (message: FromAppender) => port.postMessage(message);

interface Session {
  stream: string;
  /** Ids the stream held when this run reached it. */
  held: string[];
  expected: ExpectedRevision;
  head: ChainHead | null;
  /** Planned events seen so far. */
  seen: number;
  pending: PlannedEvent[];
  written: number;
  /** Set once the session stops: nothing more of it is written. */
  stopped: SessionOutcome | null;
}

let store: EventStore | null = null;
const opening: Promise<Ledger> = (async () => {
  const module = (await import(opener.module)) as Record<string, unknown>;
  const open = module[opener.name];
  if (typeof open !== 'function') throw new Error(`${opener.module} has no function ${opener.name} to open a store`);
  store = (await open(...opener.args)) as EventStore;
  return createLedger(store);
})();
// Its failure is reported by the first message handled (a rejection nobody awaits yet must not end the thread).
opening.catch(() => undefined);

let session: Session | null = null;

const counts = (batch: PlannedEvent[]): FromAppender => {
  const r = emptyReport('', false);
  countWritten(r, batch);
  let rows = 0;
  for (const event of batch) rows += event.rowIds.length;
  return { t: 'wrote', events: r.events, sessions: r.sessions, segments: r.segments, messages: r.messages, compacted: r.compacted, rewound: r.rewound, rows };
};

const appendPending = async (ledger: Ledger, s: Session, upTo: number): Promise<void> => {
  while (s.stopped === null && s.pending.length >= upTo && s.pending.length > 0) {
    const batch = s.pending.splice(0, batchSize);
    try {
      const result = await ledger.append(s.stream, batch, { expectedRevision: s.expected, head: s.head });
      s.expected = result.nextExpectedRevision;
      s.head = (result as LedgerAppendResult).head;
    } catch (error) {
      if (isLedgerError(error, 'invalid_input')) {
        s.stopped = { kind: 'refused', written: s.written, reason: error.message };
      } else if (isLedgerError(error, 'wrong_expected_version') || isLedgerError(error, 'stream_deleted')) {
        const reason = `another writer changed the session during the import: ${error.message}`;
        s.stopped = { kind: 'conflict', existing: s.held.length, written: s.written, reason };
      } else throw error;
      s.pending = [];
      return;
    }
    s.written += batch.length;
    send(counts(batch));
  }
};

const begin = async (stream: string): Promise<void> => {
  const held = await readIds(store!, stream);
  session = {
    stream,
    held: held.kind === 'present' ? held.ids : [],
    expected: held.kind === 'present' ? held.lastRevision : 'no_stream',
    head: held.kind === 'present' ? held.head : null,
    seen: 0,
    pending: [],
    written: 0,
    stopped: held.kind === 'deleted' ? { kind: 'conflict', existing: 0, written: 0, reason: 'the session was deleted in the ledger' } : null,
  };
};

const batch = async (ledger: Ledger, s: Session, text: string): Promise<void> => {
  for (const { kind, event } of JSON.parse(text) as SyncEvent[]) {
    const at = s.seen;
    s.seen += 1;
    if (s.stopped !== null) continue;
    if (at < s.held.length) {
      if (s.held[at] !== event.id) {
        const reason = `the source differs from what was imported before at event ${at} (${kind}); the ledger is left as it is`;
        s.stopped = { kind: 'conflict', existing: s.held.length, written: 0, reason };
      }
      continue;
    }
    s.pending.push(event);
    if (s.pending.length >= batchSize) await appendPending(ledger, s, batchSize);
  }
};

const end = async (ledger: Ledger, s: Session, count: number, refused: string | undefined): Promise<SessionOutcome> => {
  if (refused !== undefined) return { kind: 'refused', written: s.written, reason: refused };
  if (s.stopped === null && count < s.held.length) {
    const reason = `the ledger holds ${s.held.length - count} event(s) after what this file has for the session (written since, or from a newer copy)`;
    s.stopped = { kind: 'conflict', existing: s.held.length, written: 0, reason };
  }
  await appendPending(ledger, s, 1);
  return s.stopped ?? { kind: 'synced', existing: s.held.length, written: s.written };
};

const handle = async (message: ToAppender): Promise<void> => {
  const ledger = await opening;
  switch (message.t) {
    case 'begin':
      return begin(message.stream);
    case 'batch':
      await batch(ledger, session!, message.text);
      return send({ t: 'took' });
    case 'end': {
      const outcome = await end(ledger, session!, message.count, message.refused);
      session = null;
      return send({ t: 'outcome', outcome });
    }
  }
};

const close = async (): Promise<void> => {
  try {
    await opening.catch(() => undefined);
    await store?.close();
  } finally {
    send({ t: 'closed' });
    port.close();
  }
};

/** Messages are handled one at a time, in order; after a failure only `close` is. */
let chain: Promise<void> = Promise.resolve();
let failed = false;
port.on('message', (message: ToAppender) => {
  chain = chain.then(async () => {
    if (message.t === 'close') return close();
    if (failed) return;
    try {
      await handle(message);
    } catch (error) {
      failed = true;
      send({ t: 'failed', error: toWire(error) });
    }
  });
});
