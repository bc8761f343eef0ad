import { parentPort, workerData } from 'node:worker_threads';
import { isLedgerError, rememberDataTexts, type EventData, type EventStore, type ExpectedRevision, type JsonObject } from '@session-ledger/core';
import type { AppendWorkerData, FromAppender, SessionOutcome, ToAppender } from './protocol.js';
import { toWire } from './wireError.js';

/**
 * The import's append thread: opens a store of its own on the caller's ledger and writes the sealed
 * batches the main thread sends, each conditional on the exact revision the main thread expects (the
 * store checks it in the append's transaction). A batch the store refuses stops its session: a
 * conflict (another writer moved the stream) or invalid input, reported as the one-thread import
 * reports them; any other failure stops the import.
 */
const port = parentPort!;
const { opener } = workerData as AppendWorkerData;
const send = (message: FromAppender) => port.postMessage(message);

let store: EventStore | null = null;
const opening: Promise<EventStore> = (async () => {
  const module = (await import(opener.module)) as Record<string, unknown>;
  const open = module[opener.name];
  if (typeof open !== 'function') throw new Error(`${opener.module} has no function ${opener.name} to open a store`);
  store = (await open(...opener.args)) as EventStore;
  return store;
})();
// Its failure is reported by the first message handled (a rejection nobody awaits yet must not end the thread).
opening.catch(() => undefined);

interface Session {
  stream: string;
  existing: number;
  written: number;
  /** Set once the session stops: nothing more of it is written. */
  stopped: SessionOutcome | null;
}
let session: Session | null = null;

const NOTHING_WRITTEN = { events: 0, sessions: 0, segments: 0, messages: 0, compacted: 0, rewound: 0, replaced: 0 };

const append = async (s: Session, message: Extract<ToAppender, { t: 'batch' }>): Promise<void> => {
  if (s.stopped !== null) return;
  const heads = JSON.parse(message.text) as Array<{ id: string; type: string; metadata: JsonObject }>;
  const events: EventData[] = heads.map((h, index) => ({ id: h.id, type: h.type, data: JSON.parse(message.data[index]!) as EventData['data'], metadata: h.metadata }));
  // Each data text is what JSON.stringify gives for the data parsed from it: the store writes it as it is.
  rememberDataTexts(events, message.data);
  const expectedRevision: ExpectedRevision = message.expected === 'no_stream' ? 'no_stream' : BigInt(message.expected);
  let result;
  try {
    result = await (await opening).appendToStream(s.stream, events, { expectedRevision });
  } catch (error) {
    if (isLedgerError(error, 'invalid_input')) {
      s.stopped = { kind: 'refused', written: s.written, reason: error.message };
    } else if (isLedgerError(error, 'wrong_expected_version') || isLedgerError(error, 'stream_deleted')) {
      const reason = `another writer changed the session during the import: ${error.message}`;
      s.stopped = { kind: 'conflict', existing: s.existing, written: s.written, reason };
    } else throw error;
    return;
  }
  if (result.written === false) {
    // Another writer (a racing import of the same source) stored this batch first, as syncStream counts it: present, not written here.
    s.existing += events.length;
    send({ t: 'wrote', ...NOTHING_WRITTEN, rows: message.counts.rows });
    return;
  }
  s.written += events.length;
  send({ t: 'wrote', ...message.counts });
};

const handle = async (message: ToAppender): Promise<void> => {
  await opening;
  switch (message.t) {
    case 'begin':
      session = { stream: message.stream, existing: message.existing, written: 0, stopped: null };
      return;
    case 'batch':
      await append(session!, message);
      return send({ t: 'took' });
    case 'end': {
      const s = session!;
      session = null;
      const outcome: SessionOutcome =
        message.refused !== undefined ? { kind: 'refused', written: s.written, reason: message.refused } : s.stopped ?? { kind: 'synced', existing: s.existing, written: s.written };
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
