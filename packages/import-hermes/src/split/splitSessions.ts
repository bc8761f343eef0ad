import { createLedger, isLedgerError, type ChainHead, type EventStore, type ExpectedRevision, type LedgerAppendResult, type LedgerError } from '@session-ledger/core';
import { interrupted, type SessionsOptions } from '../importSessions.js';
import { readIds } from '../ledger/readIds.js';
import type { SyncEvent } from '../ledger/syncStream.js';
import type { PlannedEvent } from '../mapping/stepEvent.js';
import { buildImportPlan, type SessionImport } from '../plan/importPlan.js';
import { countWritten, emptyReport, type ImportReport } from '../report.js';
import type { HermesSource } from '../source/hermesSource.js';
import { startAppendThread } from './appendThread.js';
import { forwardingStore } from './forwardingStore.js';
import type { FromAppender, SessionOutcome, StoreOpener, WroteCounts } from './protocol.js';
import { mayBeIllFormed, plannedEvent, plannedEvents } from './sessionEvents.js';

/**
 * What the report is told, in the order the one-thread import tells it: a session the worker writes
 * waits for its outcome; what this thread decides alone (a session skipped, refused, in conflict or
 * already complete) waits behind the sessions before it, so the report's lists come out in order.
 */
type Entry = { worker: false; apply: () => void } | { worker: true; sessionId: string; rows: number };

/** The report's counts of one batch (countWritten), and its Hermes rows for the progress. */
const countsOf = (batch: PlannedEvent[]): WroteCounts => {
  const r = emptyReport('', false);
  countWritten(r, batch);
  let rows = 0;
  for (const event of batch) rows += event.rowIds.length;
  return { events: r.events, sessions: r.sessions, segments: r.segments, messages: r.messages, compacted: r.compacted, rewound: r.rewound, rows };
};

/**
 * importSessions on two threads. This one reads the source, plans each unit, builds and checks each
 * session's events, reads what the stream already holds (syncStream's rules: the plan's prefix, or a
 * conflict) and seals each batch of the rest with the hash chain through a ledger whose appends go,
 * as JSON text, to a worker that writes them through its own store (`opener`), each conditional on
 * the exact revision this thread expects; at most two batches wait between the threads.
 *
 * Why this thread may read the store while the worker writes: every read decides the writes of one
 * stream (its ids, its head), and in one run a stream is written by one session only (units
 * partition the sessions, and a session writes its own stream), always after that read. So no read
 * here can miss a write of this run it depends on; a write by anyone else in between makes the
 * worker's conditional append fail, reported as the conflict one thread reports.
 *
 * A session whose rows might hold text that is not well-formed is built whole before any of it is
 * sent, so its refusal writes nothing.
 */
export const splitSessions = async (store: EventStore, source: HermesSource, report: ImportReport, options: SessionsOptions & { opener: StoreOpener }): Promise<void> => {
  const total = source.messageCount;
  const batchSize = options.batchSize ?? 1000;
  let done = 0;
  let index = 0;
  const queue: Entry[] = [];
  let failed: unknown = null;

  const drainLocal = () => {
    while (queue.length > 0 && !queue[0]!.worker) (queue.shift() as { apply: () => void }).apply();
  };
  const local = (apply: () => void) => {
    queue.push({ worker: false, apply });
    if (queue.length === 1) drainLocal();
  };
  const head = () => {
    drainLocal();
    return queue[0] as Extract<Entry, { worker: true }> | undefined;
  };
  /** As importSessions counts a session's outcome. */
  const apply = (sessionId: string, rows: number, outcome: SessionOutcome) => {
    if (outcome.kind === 'refused') {
      report.skipped.push({ session: sessionId, rows, reason: `cannot be mapped: ${outcome.reason}` });
    } else {
      report.unchanged.events += outcome.existing;
      if (outcome.existing > 0 && outcome.written === 0 && outcome.kind === 'synced') report.unchanged.sessions += 1;
      if (outcome.existing > 0 && outcome.written > 0) report.updated += 1;
      if (outcome.kind === 'conflict') report.skipped.push({ session: sessionId, rows, reason: outcome.reason });
    }
    done += rows;
    index += 1;
    // One thread tells the progress of a refused session with the next one's.
    if (outcome.kind !== 'refused') options.onProgress?.(done, total);
  };
  const onMessage = (message: Extract<FromAppender, { t: 'wrote' | 'outcome' }>) => {
    const item = head()!;
    if (message.t === 'wrote') {
      report.events += message.events;
      report.sessions += message.sessions;
      report.segments += message.segments;
      report.messages += message.messages;
      report.compacted += message.compacted;
      report.rewound += message.rewound;
      options.onProgress?.(done + message.rows, total);
      return;
    }
    queue.shift();
    apply(item.sessionId, item.rows, message.outcome);
    drainLocal();
  };
  const onFailure = (error: Error) => {
    // Restated with what was written when it failed, as one thread does.
    failed = isLedgerError(error) ? interrupted(error, report, head()?.sessionId ?? null, index, source.sessionCount) : error;
  };
  const thread = startAppendThread(options.opener, onMessage, onFailure);
  let counts: WroteCounts | null = null;
  const ledger = createLedger(forwardingStore(store, thread, () => counts!));
  const check = () => {
    if (failed !== null) throw failed;
  };

  /** Decides and sends one session (syncStream's rules); what it decides alone is reported in its place. */
  const sendSession = async (item: SessionImport) => {
    const rows = item.rows.length;
    const decided = (outcome: SessionOutcome) => local(() => apply(item.session.id, rows, outcome));
    let whole: SyncEvent[] | null = null;
    if (mayBeIllFormed(item)) {
      try {
        whole = plannedEvents(item);
      } catch (error) {
        if (!isLedgerError(error, 'invalid_input')) throw error;
        return decided({ kind: 'refused', written: 0, reason: error.message });
      }
    }
    const held = await readIds(store, item.stream);
    if (held.kind === 'deleted') return decided({ kind: 'conflict', existing: 0, written: 0, reason: 'the session was deleted in the ledger' });
    const ids = held.kind === 'present' ? held.ids : [];
    let expected: ExpectedRevision = held.kind === 'present' ? held.lastRevision : 'no_stream';
    let chainHead: ChainHead | null = held.kind === 'present' ? held.head : null;
    let at = 0;
    let begun = false;
    let batch: PlannedEvent[] = [];
    const flush = async () => {
      if (!begun) queue.push({ worker: true, sessionId: item.session.id, rows }), thread.begin(item.stream, ids.length), (begun = true);
      counts = countsOf(batch);
      const result = await ledger.append(item.stream, batch, { expectedRevision: expected, head: chainHead });
      expected = result.nextExpectedRevision;
      chainHead = (result as LedgerAppendResult).head;
      batch = [];
    };
    /** One planned event in order: checked against what the stream holds, or queued for an append. Returns a conflict, if it is one. */
    const take = async (planned: SyncEvent): Promise<SessionOutcome | null> => {
      const i = at;
      at += 1;
      if (i < ids.length) {
        if (ids[i] === planned.event.id) return null;
        const reason = `the source differs from what was imported before at event ${i} (${planned.kind}); the ledger is left as it is`;
        return { kind: 'conflict', existing: ids.length, written: 0, reason };
      }
      batch.push(planned.event);
      if (batch.length === batchSize) await flush();
      return null;
    };
    let conflict: SessionOutcome | null = null;
    try {
      if (whole !== null) {
        for (const planned of whole) if ((conflict = await take(planned)) !== null) break;
      } else {
        for (const step of item.steps) {
          const planned = plannedEvent(item, step);
          if (planned !== null && (conflict = await take(planned)) !== null) break;
        }
      }
    } catch (error) {
      // Not known to happen (see mayBeIllFormed): the batches before it may be written already.
      if (failed !== null || !isLedgerError(error, 'invalid_input')) throw error;
      if (!begun) return decided({ kind: 'refused', written: 0, reason: error.message });
      return thread.end(error.message);
    }
    if (conflict === null && at < ids.length) {
      const reason = `the ledger holds ${ids.length - at} event(s) after what this file has for the session (written since, or from a newer copy)`;
      conflict = { kind: 'conflict', existing: ids.length, written: 0, reason };
    }
    if (conflict !== null) return decided(conflict);
    if (batch.length > 0) await flush();
    if (begun) thread.end();
    else decided({ kind: 'synced', existing: ids.length, written: 0 });
  };

  let closing: Promise<void> | null = null;
  const finish = (): Promise<void> => (closing ??= thread.close());
  try {
    const units = source.units()[Symbol.iterator]();
    for (;;) {
      check();
      let next;
      try {
        next = units.next();
      } catch (error) {
        if (!isLedgerError(error)) throw error;
        // What was sent is written first, as one thread had written it before reading on.
        await finish();
        check();
        throw interrupted(error as LedgerError, report, null, index, source.sessionCount);
      }
      if (next.done) break;
      const plan = buildImportPlan(next.value);
      local(() => report.skipped.push(...plan.skipped));
      for (const item of plan.sessions) {
        check();
        await sendSession(item);
      }
    }
    await finish();
    check();
    drainLocal();
  } catch (error) {
    await finish();
    throw failed ?? error;
  }
};
