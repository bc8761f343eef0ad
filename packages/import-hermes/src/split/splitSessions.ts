import { createLedger, isLedgerError, type ChainHead, type EventStore, type ExpectedRevision, type LedgerAppendResult, type LedgerError } from '@session-ledger/core';
import { interrupted, type SessionsOptions } from '../importSessions.js';
import { deletedReason } from '../ledger/deletedSession.js';
import { readIds } from '../ledger/readIds.js';
import { sourceOf } from '../ledger/reconcile.js';
import { reconcileHeld, type SyncEvent } from '../ledger/syncStream.js';
import type { PlannedEvent } from '../mapping/stepEvent.js';
import { buildImportPlan, type SessionImport } from '../plan/importPlan.js';
import type { ImportReport } from '../report.js';
import type { HermesSource } from '../source/hermesSource.js';
import { startAppendThread } from './appendThread.js';
import { forwardingStore } from './forwardingStore.js';
import type { SessionOutcome, StoreOpener, WroteCounts } from './protocol.js';
import { countsOf, reportInOrder } from './reportInOrder.js';
import { mayBeIllFormed, plannedEvent, plannedEvents } from './sessionEvents.js';

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
  const batchSize = options.batchSize ?? 1000;
  const told = reportInOrder(report, source.messageCount, options.onProgress);
  let failed: unknown = null;
  const onFailure = (error: Error) => {
    // Restated with what was written when it failed, as one thread does.
    failed = isLedgerError(error) ? interrupted(error, report, told.writing(), told.sessions(), source.sessionCount) : error;
  };
  const thread = startAppendThread(options.opener, told.onMessage, onFailure);
  let counts: WroteCounts | null = null;
  const ledger = createLedger(forwardingStore(store, thread, () => counts!));
  const check = () => {
    if (failed !== null) throw failed;
  };

  /** Decides and sends one session (syncStream's rules); what it decides alone is reported in its place. */
  const sendSession = async (item: SessionImport) => {
    const rows = item.rows.length;
    const decided = (outcome: SessionOutcome) => told.decided(item.session.id, rows, outcome);
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
    if (held.kind === 'deleted') {
      const planned = whole?.length ?? item.steps.reduce((count, step) => count + (plannedEvent(item, step) === null ? 0 : 1), 0);
      return decided({ kind: 'conflict', existing: 0, written: 0, reason: await deletedReason(store, item.stream, planned) });
    }
    const ids = held.kind === 'present' ? held.ids : [];
    if (held.kind === 'present') {
      // A stream imported before: built whole, to be reconciled with what it holds (syncStream's rules).
      try {
        whole ??= plannedEvents(item);
      } catch (error) {
        if (!isLedgerError(error, 'invalid_input')) throw error;
        return decided({ kind: 'refused', written: 0, reason: error.message });
      }
      const reconciled = await reconcileHeld(store, item.stream, held.events, whole, sourceOf(item));
      if (reconciled.kind === 'conflict') return decided({ kind: 'conflict', existing: ids.length, written: 0, reason: reconciled.reason });
      whole = reconciled.events;
    }
    let expected: ExpectedRevision = held.kind === 'present' ? held.lastRevision : 'no_stream';
    let chainHead: ChainHead | null = held.kind === 'present' ? held.head : null;
    let begun = false;
    let batch: PlannedEvent[] = [];
    const flush = async () => {
      if (!begun) told.sent(item.session.id, rows), thread.begin(item.stream, ids.length), (begun = true);
      counts = countsOf(batch);
      const result = await ledger.append(item.stream, batch, { expectedRevision: expected, head: chainHead });
      expected = result.nextExpectedRevision;
      chainHead = (result as LedgerAppendResult).head;
      batch = [];
    };
    /** One event to append, in order. */
    const take = async (planned: SyncEvent): Promise<void> => {
      batch.push(planned.event);
      if (batch.length === batchSize) await flush();
    };
    try {
      if (whole !== null) {
        for (const planned of whole) await take(planned);
      } else {
        for (const step of item.steps) {
          const planned = plannedEvent(item, step);
          if (planned !== null) await take(planned);
        }
      }
    } catch (error) {
      // Not known to happen (see mayBeIllFormed): the batches before it may be written already.
      if (failed !== null || !isLedgerError(error, 'invalid_input')) throw error;
      if (!begun) return decided({ kind: 'refused', written: 0, reason: error.message });
      return thread.end(error.message);
    }
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
        throw interrupted(error as LedgerError, report, null, told.sessions(), source.sessionCount);
      }
      if (next.done) break;
      const plan = buildImportPlan(next.value);
      told.local(() => report.skipped.push(...plan.skipped));
      for (const item of plan.sessions) {
        check();
        await sendSession(item);
      }
    }
    await finish();
    check();
    told.flush();
  } catch (error) {
    await finish();
    throw failed ?? error;
  }
};
