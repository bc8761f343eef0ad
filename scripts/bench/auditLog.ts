import { createLedger, newId, verifyLog, type Ledger, type NewEvent } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { loadavg } from 'node:os';
import { compared, compareRates, scratch } from './measure.js';
import { openPlain, type PlainSqlite } from './plainSqlite.js';
import { leafRowRow } from './logLayout.js';
import { asEarlierLeaves } from './earlierLeaves.js';
import type { BenchRow } from './types.js';

/**
 * Issue 13: the log commitment's costs. Single appends (each its own transaction, now with a leaf
 * and its subtrees) against the plain single-insert ceiling; `audit verify` of a large ledger
 * against the plain read-and-parse ceiling of the same rows; the digest and one inclusion proof.
 * Beside the append row, what the leaf row alone costs plain SQLite transactions (logLayout.ts).
 * AUDIT_BENCH_EVENTS sets the ledger's size (default 1,000,000).
 */
const SINGLE = 1000;
const EVENTS = Number(process.env.AUDIT_BENCH_EVENTS ?? 1_000_000);
const BATCH = 1000;
const STREAMS = 100;
const TEXT = 'The assistant replied with a short paragraph about the weather and asked a question. '.repeat(3);
const event = (n: number): NewEvent => ({ id: newId(), type: 'turn.appended', data: { role: 'assistant', n, text: TEXT } });

/** Single appends through the ledger, each its own transaction (exact revision). */
const ledgerAppends = (dir: ReturnType<typeof scratch>) => ({
  prepare: () => ({ ledger: createLedger(openSqliteStore(dir.file(`${newId()}.sqlite`))), payload: Array.from({ length: SINGLE }, (_, n) => event(n)) }),
  work: async ({ ledger, payload }: { ledger: Ledger; payload: NewEvent[] }) => {
    let expectedRevision: bigint | 'no_stream' = 'no_stream';
    for (const item of payload) expectedRevision = (await ledger.append('session-bench', [item], { expectedRevision })).nextExpectedRevision;
  },
  cleanup: ({ ledger }: { ledger: Ledger }) => ledger.store.close(),
});

const plainInserts = (dir: ReturnType<typeof scratch>, bare: boolean) => ({
  prepare: () => ({ plain: openPlain(dir.file(`${newId()}.plain`), 'NORMAL', bare), payload: Array.from({ length: SINGLE }, (_, n) => event(n)) }),
  work: ({ plain, payload }: { plain: PlainSqlite; payload: NewEvent[] }) => payload.forEach((item, at) => plain.insertBatch('session-bench', at, [item])),
  cleanup: ({ plain }: { plain: PlainSqlite }) => plain.close(),
});

const singleAppendRows = async (): Promise<BenchRow[]> => {
  const dir = scratch('audit-append');
  const rates = await compareRates(SINGLE, ledgerAppends(dir), plainInserts(dir, false));
  // The same appends against the barest event insert (no id index, no AUTOINCREMENT): since schema
  // version 6 the store indexes ids in batches, which the ceiling above still pays on every insert.
  const bare = await compareRates(SINGLE, ledgerAppends(dir), plainInserts(dir, true));
  dir.remove();
  const name = 'sqlite single-event appends with the log commitment: ledger, exact revision, synchronous=NORMAL';
  return [
    compared(name, 'events/s', rates.subject, 'plain better-sqlite3 insert, one transaction each, synchronous=NORMAL', rates.baseline),
    compared(`${name}, beside the barest insert`, 'events/s', bare.subject, 'plain better-sqlite3 insert into the events table alone (no id index, no AUTOINCREMENT), one transaction each', bare.baseline),
  ];
};

/**
 * Timed verifies of each ledger (after one untimed), alternating with the baseline; the row is the
 * median. One run (before session 19) moved by a quarter from run to run: the first verify after
 * the ledger is written shares the machine with the kernel writing back its 1.3 GB.
 */
const VERIFY_RUNS = 3;

const msOf = async (runs: number, work: (run: number) => Promise<unknown>): Promise<number> => {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = process.hrtime.bigint();
    await work(run);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
};

const largeLedgerRows = async (): Promise<BenchRow[]> => {
  // A small AUDIT_BENCH_EVENTS (the quick run of the append row) fills fewer streams than STREAMS.
  const streams = Math.min(STREAMS, Math.ceil(EVENTS / BATCH));
  const dir = scratch('audit-verify');
  const file = dir.file('ledger.sqlite');
  const plain = openPlain(dir.file('plain.sqlite'), 'NORMAL');
  const writer = createLedger(openSqliteStore(file));
  for (let at = 0; at < EVENTS; at += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, EVENTS - at) }, (_, n) => event(at + n));
    const stream = `session-${(at / BATCH) % streams}`;
    await writer.append(stream, batch);
    plain.insertBatch(stream, at, batch.map((item) => ({ ...item, data: { ...(item.data as object), prevHash: 'x'.repeat(64), hash: 'x'.repeat(64) } })));
  }
  await writer.store.close();
  const store = openSqliteStore(file);
  const load = loadavg()[0]!.toFixed(2);
  const rates = await compareRates(
    EVENTS,
    {
      prepare: () => undefined,
      work: async () => {
        const report = await verifyLog(store);
        if (!report.ok || report.events !== EVENTS) throw new Error(`verify: ${report.breakCount} breaks, ${report.events} events`);
      },
    },
    { prepare: () => undefined, work: () => void plain.readAll(1000) },
    VERIFY_RUNS,
  );
  const digestMs = await msOf(21, () => store.log!.digest());
  const proofMs = await msOf(201, (run) => store.log!.proof(`session-${run % streams}`, BigInt((run * 7919) % Math.floor(EVENTS / streams))));
  await store.close();
  // The same ledger as a session-ledger before schema version 7 wrote it: its leaves without positions.
  asEarlierLeaves(file);
  const earlierStore = openSqliteStore(file);
  const earlier = await compareRates(
    EVENTS,
    {
      prepare: () => undefined,
      work: async () => {
        const report = await verifyLog(earlierStore);
        if (!report.ok || report.events !== EVENTS) throw new Error(`verify (earlier leaves): ${report.breakCount} breaks, ${report.events} events`);
      },
    },
    { prepare: () => undefined, work: () => void plain.readAll(1000) },
    VERIFY_RUNS,
  );
  await earlierStore.close();
  plain.close();
  dir.remove();
  const size = EVENTS.toLocaleString('en-US');
  return [
    compared(`audit verify of ${size} events (whole log, SQLite; median of ${VERIFY_RUNS}; load ${load})`, 'events/s', rates.subject, `plain better-sqlite3 read and JSON.parse of the same ${size} rows`, rates.baseline),
    compared(`audit verify of ${size} events written before schema 7 (leaves without positions; median of ${VERIFY_RUNS}; load ${load})`, 'events/s', earlier.subject, `plain better-sqlite3 read and JSON.parse of the same ${size} rows`, earlier.baseline),
    { name: `audit digest on the ${size}-event ledger (median of 21)`, unit: 'ms', value: Math.round(digestMs * 100) / 100, baseline: null, ratio: null },
    { name: `inclusion proof on the ${size}-event ledger (median of 201)`, unit: 'ms', value: Math.round(proofMs * 100) / 100, baseline: null, ratio: null },
  ];
};

export const rows = async (): Promise<BenchRow[]> => [...(await singleAppendRows()), await leafRowRow(), ...(await largeLedgerRows())];
