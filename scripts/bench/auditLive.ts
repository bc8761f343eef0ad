import { createLedger, newId, verifyLog, type EventStore, type NewEvent } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { loadavg } from 'node:os';
import { compared, scratch } from './measure.js';
import type { BenchRow } from './types.js';

/**
 * Issue 13, session 8: `audit verify` of a large SQLite ledger while a writer appends (a live
 * ledger: a server keeps writing). The appends land past the size verify read, so the scanned
 * ranges do not cover them; verify now seeks strays only above the last verified position
 * (`EventLog.strays` with a bound). The baseline is the same verify with the bound ignored (the
 * port allows it: the answer is the same), which is the path before: the whole-file
 * `NOT IN (SELECT position FROM log_leaves)` query. Old and new alternate in this one process, on
 * one ledger; CPU per event (`process.cpuUsage`, all threads, the writer's share included on both
 * sides) goes to stderr. AUDIT_BENCH_EVENTS sets the size (default 1,000,000), AUDIT_LIVE_RUNS the
 * trials of each side (default 3).
 */
const EVENTS = Number(process.env.AUDIT_BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.AUDIT_LIVE_RUNS ?? 3);
const BATCH = 1000;
const STREAMS = 100;
const TEXT = 'The assistant replied with a short paragraph about the weather and asked a question. '.repeat(3);
const event = (n: number): NewEvent => ({ id: newId(), type: 'turn.appended', data: { role: 'assistant', n, text: TEXT } });

/** Appends one event at a time, about one a millisecond, on its own connection, until stopped. */
const liveWriter = (file: string) => {
  const store = openSqliteStore(file);
  const ledger = createLedger(store);
  let stop = false;
  let appended = 0;
  const running = (async () => {
    while (!stop) {
      await ledger.append(`live-${appended % 10}`, [event(appended)]);
      appended += 1;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  })();
  return {
    stop: async () => {
      stop = true;
      await running;
      return appended;
    },
    close: () => store.close(),
  };
};

interface Trial {
  seconds: number;
  cpuUsPerEvent: number;
  straysMs: number;
  appended: number;
}

const round = (value: number) => Math.round(value * 100) / 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const trial = async (store: EventStore, file: string, bounded: boolean): Promise<Trial> => {
  const log = store.log!;
  let straysMs = 0;
  // The old path: the bound ignored, so the whole file is sought.
  const timedStrays: typeof log.strays = async (bound) => {
    const start = process.hrtime.bigint();
    const found = await log.strays(bounded ? bound : undefined);
    straysMs += Number(process.hrtime.bigint() - start) / 1e6;
    return found;
  };
  const subject: EventStore = { ...store, log: { ...log, strays: timedStrays } };
  const writer = liveWriter(file);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  const report = await verifyLog(subject);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  const appended = await writer.stop();
  await writer.close();
  if (!report.ok || report.events < EVENTS) throw new Error(`verify: ${report.breakCount} breaks, ${report.events} events`);
  return { seconds, cpuUsPerEvent: (used.user + used.system) / report.events, straysMs, appended };
};

export const rows = async (): Promise<BenchRow[]> => {
  const streams = Math.min(STREAMS, Math.ceil(EVENTS / BATCH));
  const dir = scratch('audit-live');
  const file = dir.file('ledger.sqlite');
  const builder = createLedger(openSqliteStore(file));
  for (let at = 0; at < EVENTS; at += BATCH) await builder.append(`session-${(at / BATCH) % streams}`, Array.from({ length: Math.min(BATCH, EVENTS - at) }, (_, n) => event(at + n)));
  await builder.store.close();
  const store = openSqliteStore(file);
  const load = loadavg()[0]!.toFixed(2);
  const old: Trial[] = [];
  const now: Trial[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    old.push(await trial(store, file, false));
    now.push(await trial(store, file, true));
  }
  await store.close();
  dir.remove();
  for (const [side, trials] of [['old', old], ['new', now]] as const) {
    for (const t of trials) process.stderr.write(`audit-live ${side}: ${t.seconds.toFixed(2)} s, ${t.cpuUsPerEvent.toFixed(2)} us CPU/event, strays ${t.straysMs.toFixed(1)} ms, ${t.appended} appended during\n`);
  }
  process.stderr.write(`audit-live: load ${load} at start, ${loadavg()[0]!.toFixed(2)} at end\n`);
  const size = EVENTS.toLocaleString('en-US');
  const rate = (trials: Trial[]) => EVENTS / median(trials.map((t) => t.seconds));
  return [
    compared(
      `audit verify of ${size} events while a writer appends (strays sought above the last verified position; load ${load})`,
      'events/s',
      rate(now),
      'the same verify seeking strays in the whole file (before session 8)',
      rate(old),
    ),
    {
      name: `its stray query while a writer appends (median of ${RUNS})`,
      unit: 'ms',
      value: round(median(now.map((t) => t.straysMs))),
      baseline: { name: 'the whole-file stray query (before session 8)', value: round(median(old.map((t) => t.straysMs))) },
      ratio: round(median(now.map((t) => t.straysMs)) / median(old.map((t) => t.straysMs))),
    },
  ];
};
