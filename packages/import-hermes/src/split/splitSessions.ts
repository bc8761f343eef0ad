import { isLedgerError, type LedgerError } from '@session-ledger/core';
import type { SyncEvent } from '../ledger/syncStream.js';
import { interrupted, type SessionsOptions } from '../importSessions.js';
import { buildImportPlan, type SessionImport } from '../plan/importPlan.js';
import type { ImportReport } from '../report.js';
import type { HermesSource } from '../source/hermesSource.js';
import { startAppendThread, type AppendThread } from './appendThread.js';
import type { FromAppender, StoreOpener } from './protocol.js';
import { mayBeIllFormed, plannedEvent, plannedEvents } from './sessionEvents.js';

/**
 * What the report is told, in the order the one-thread import tells it: a session the worker syncs
 * waits for its outcome; what this thread knows at once (skipped sessions) waits behind the sessions
 * before it, so the report's lists come out in the same order.
 */
type Entry = { worker: false; apply: () => void } | { worker: true; sessionId: string; rows: number };

/**
 * importSessions on two threads: this one reads the source, plans each unit and builds and checks
 * each session's events, and sends them, a batch at a time as JSON text, to a worker that appends
 * them through a ledger on its own store (`opener`); at most two batches wait between the threads.
 * The worker decides every write from the store as it finds it (syncStream's rules), in plan order, so
 * the ledger, the report and a resumed run are those of one thread. A session whose rows might hold
 * text that is not well-formed is built whole before any of it is sent, so its refusal writes nothing.
 */
export const splitSessions = async (source: HermesSource, report: ImportReport, options: SessionsOptions & { opener: StoreOpener }): Promise<void> => {
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
    const outcome = message.outcome;
    if (outcome.kind === 'refused') {
      report.skipped.push({ session: item.sessionId, rows: item.rows, reason: `cannot be mapped: ${outcome.reason}` });
    } else {
      report.unchanged.events += outcome.existing;
      if (outcome.existing > 0 && outcome.written === 0 && outcome.kind === 'synced') report.unchanged.sessions += 1;
      if (outcome.existing > 0 && outcome.written > 0) report.updated += 1;
      if (outcome.kind === 'conflict') report.skipped.push({ session: item.sessionId, rows: item.rows, reason: outcome.reason });
    }
    done += item.rows;
    index += 1;
    options.onProgress?.(done, total);
    drainLocal();
  };
  const onFailure = (error: Error) => {
    // Restated with what was written when it failed, as one thread does.
    failed = isLedgerError(error) ? interrupted(error, report, head()?.sessionId ?? null, index, source.sessionCount) : error;
  };
  const thread = startAppendThread(options.opener, batchSize, onMessage, onFailure);
  const check = () => {
    if (failed !== null) throw failed;
  };

  /** Sends one session; a refusal of it here is reported in its place. */
  const sendSession = async (item: SessionImport) => {
    const refuse = (error: LedgerError) => {
      local(() => {
        report.skipped.push({ session: item.session.id, rows: item.rows.length, reason: `cannot be mapped: ${error.message}` });
        done += item.rows.length;
        index += 1;
      });
    };
    let whole: SyncEvent[] | null = null;
    if (mayBeIllFormed(item)) {
      try {
        whole = plannedEvents(item);
      } catch (error) {
        if (!isLedgerError(error, 'invalid_input')) throw error;
        return refuse(error);
      }
    }
    queue.push({ worker: true, sessionId: item.session.id, rows: item.rows.length });
    thread.begin(item.stream);
    let count = 0;
    if (whole !== null) {
      for (let start = 0; start < whole.length; start += batchSize) await thread.batch(whole.slice(start, start + batchSize));
      count = whole.length;
    } else {
      let batch: SyncEvent[] = [];
      try {
        for (const step of item.steps) {
          const event = plannedEvent(item, step);
          if (event === null) continue;
          batch.push(event);
          count += 1;
          if (batch.length === batchSize) await thread.batch(batch), (batch = []);
        }
      } catch (error) {
        // Not known to happen (see mayBeIllFormed): the batches before it may be written already.
        if (!isLedgerError(error, 'invalid_input')) throw error;
        return thread.end(count, error.message);
      }
      if (batch.length > 0) await thread.batch(batch);
    }
    thread.end(count);
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
        throw interrupted(error, report, null, index, source.sessionCount);
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
