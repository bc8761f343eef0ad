import { createLedger, newId, readAllPages, type EventStore, type NewEvent } from '@session-ledger/core';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import type * as TestDouble from '../../test/esdb-server/index.js';
import { compared, scratch } from './measure.js';
import type { BenchRow } from './types.js';

/**
 * Issue 6: the cost of the EventStoreDB client path. The adapter drives the real
 * @eventstore/db-client against the gRPC test double (test/esdb-server, backed by the in-memory
 * store, in this process), beside the SQLite store doing the same work in the same run. The
 * double is not EventStoreDB: these rows say nothing about EventStoreDB's own speed.
 */
const SINGLE = 300;
const BATCH_SIZE = 100;
const BATCHES = 20;
const READ_EVENTS = 10_000;
const PAGE = 1000;
const RUNS = 3;

const TEXT = 'The assistant replied with a short paragraph about the weather and asked a question. '.repeat(3);
const events = (count: number, start = 0): NewEvent[] =>
  Array.from({ length: count }, (_, index) => ({ id: newId(), type: 'turn.appended', data: { role: 'assistant', n: start + index, text: TEXT } }));

/** The compiled test double (npm run bench builds it with everything else). */
const testDouble = async (): Promise<typeof TestDouble> =>
  (await import(new URL('../../../test/esdb-server/dist/index.js', import.meta.url).href)) as typeof TestDouble;

interface Side {
  open: () => Promise<{ store: EventStore; close: () => Promise<void> }>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs the work on each side alternately, RUNS times, each on a fresh store; median rates. */
const rates = async (count: number, sides: [Side, Side], work: (store: EventStore) => Promise<void>) => {
  const results: [number[], number[]] = [[], []];
  for (let run = 0; run < RUNS; run += 1) {
    for (const [index, side] of sides.entries()) {
      const { store, close } = await side.open();
      const start = process.hrtime.bigint();
      await work(store);
      results[index]!.push(count / (Number(process.hrtime.bigint() - start) / 1e9));
      await close();
    }
  }
  return results.map(median) as [number, number];
};

const appendAll = async (store: EventStore, payload: NewEvent[], size: number) => {
  const ledger = createLedger(store);
  let expectedRevision: bigint | 'no_stream' = 'no_stream';
  for (let at = 0; at < payload.length; at += size) {
    expectedRevision = (await ledger.append('session-bench', payload.slice(at, at + size), { expectedRevision })).nextExpectedRevision;
  }
};

export const rows = async (): Promise<BenchRow[]> => {
  const { startEsdbTestServer } = await testDouble();
  const dir = scratch('esdb');
  const esdb = (seed?: (store: EventStore) => Promise<void>): Side => ({
    open: async () => {
      const server = await startEsdbTestServer();
      const store = openEventStoreDbStore(server.url);
      await seed?.(store);
      return { store, close: async () => (await store.close(), await server.close()) };
    },
  });
  const sqlite = (file = () => dir.file(`${newId()}.sqlite`), seed?: (store: EventStore) => Promise<void>): Side => ({
    open: async () => {
      const store = openSqliteStore(file());
      await seed?.(store);
      return { store, close: () => store.close() };
    },
  });
  const out: BenchRow[] = [];
  const single = await rates(SINGLE, [esdb(), sqlite()], (store) => appendAll(store, events(SINGLE), 1));
  out.push(compared('eventstoredb single-event appends: ledger, exact revision, real client to the gRPC test double', 'events/s', single[0], 'the SQLite store, same appends', single[1]));
  const batched = await rates(BATCH_SIZE * BATCHES, [esdb(), sqlite()], (store) => appendAll(store, events(BATCH_SIZE * BATCHES), BATCH_SIZE));
  out.push(compared(`eventstoredb batched appends (${BATCH_SIZE} events a batch): real client to the gRPC test double`, 'events/s', batched[0], 'the SQLite store, same appends', batched[1]));
  const fill = async (store: EventStore) => {
    const ledger = createLedger(store);
    for (let at = 0; at < READ_EVENTS; at += BATCH_SIZE) await ledger.append(`session-${at % 20}`, events(BATCH_SIZE, at));
  };
  const read = async (store: EventStore) => {
    let count = 0;
    for await (const page of readAllPages(store, 'start', PAGE)) count += page.length;
    if (count !== READ_EVENTS) throw new Error(`read ${count} events, wrote ${READ_EVENTS}`);
  };
  const readFile = dir.file('read.sqlite');
  const seeded = openSqliteStore(readFile);
  await fill(seeded);
  await seeded.close();
  const readAll = await rates(READ_EVENTS, [esdb(fill), sqlite(() => readFile)], read);
  out.push(compared(`eventstoredb readAll (pages of ${PAGE}): real client from the gRPC test double`, 'events/s', readAll[0], 'the SQLite store, same read', readAll[1]));
  dir.remove();
  return out;
};
