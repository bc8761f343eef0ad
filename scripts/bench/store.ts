import { createLedger, newId, readAllPages, type NewEvent } from '@session-ledger/core';
import { openSqliteStore, type Durability } from '@session-ledger/store-sqlite';
import { compared, medianRate, scratch } from './measure.js';
import { openPlain } from './plainSqlite.js';
import type { BenchRow } from './types.js';

/** Issue 2: the SQLite store through the hash-chained ledger, against plain better-sqlite3. */
const SINGLE = { normal: 4000, full: 300 } as const;
const BATCH_SIZE = 100;
const BATCHES = 200;
const READ_EVENTS = 50_000;
const PAGE = 1000;

const TEXT = 'The assistant replied with a short paragraph about the weather and asked a question. '.repeat(3);
const event = (n: number): NewEvent => ({ id: newId(), type: 'turn.appended', data: { role: 'assistant', n, text: TEXT } });
const events = (count: number, start = 0) => Array.from({ length: count }, (_, index) => event(start + index));

const SYNC = { normal: 'NORMAL', full: 'FULL' } as const;

const singleAppends = async (durability: Durability): Promise<BenchRow> => {
  const count = SINGLE[durability];
  const dir = scratch('single');
  const ledgerRate = await medianRate(
    count,
    () => ({ ledger: createLedger(openSqliteStore(dir.file(`${newId()}.sqlite`), { durability })), payload: events(count) }),
    async ({ ledger, payload }) => {
      let expectedRevision: bigint | 'no_stream' = 'no_stream';
      for (const item of payload) expectedRevision = (await ledger.append('session-bench', [item], { expectedRevision })).nextExpectedRevision;
    },
    ({ ledger }) => ledger.store.close(),
  );
  const plainRate = await medianRate(
    count,
    () => ({ plain: openPlain(dir.file(`${newId()}.plain`), SYNC[durability]), payload: events(count) }),
    ({ plain, payload }) => payload.forEach((item, index) => plain.insertBatch('session-bench', index, [item])),
    ({ plain }) => plain.close(),
  );
  dir.remove();
  return compared(
    `sqlite single-event appends (ledger, exact revision, synchronous=${SYNC[durability]})`,
    'events/s',
    ledgerRate,
    `plain better-sqlite3 insert, one transaction each (synchronous=${SYNC[durability]})`,
    plainRate,
  );
};

const batchedAppends = async (): Promise<BenchRow> => {
  const total = BATCH_SIZE * BATCHES;
  const dir = scratch('batch');
  const ledgerRate = await medianRate(
    total,
    () => ({ ledger: createLedger(openSqliteStore(dir.file(`${newId()}.sqlite`))), payload: events(total) }),
    async ({ ledger, payload }) => {
      let expectedRevision: bigint | 'no_stream' = 'no_stream';
      for (let at = 0; at < total; at += BATCH_SIZE) {
        const batch = payload.slice(at, at + BATCH_SIZE);
        expectedRevision = (await ledger.append('session-bench', batch, { expectedRevision })).nextExpectedRevision;
      }
    },
    ({ ledger }) => ledger.store.close(),
  );
  const plainRate = await medianRate(
    total,
    () => ({ plain: openPlain(dir.file(`${newId()}.plain`), 'NORMAL'), payload: events(total) }),
    ({ plain, payload }) => {
      for (let at = 0; at < total; at += BATCH_SIZE) plain.insertBatch('session-bench', at, payload.slice(at, at + BATCH_SIZE));
    },
    ({ plain }) => plain.close(),
  );
  dir.remove();
  return compared(
    `sqlite batched appends (ledger, ${BATCH_SIZE} events a batch)`,
    'events/s',
    ledgerRate,
    `plain better-sqlite3 inserts, ${BATCH_SIZE} a transaction`,
    plainRate,
  );
};

const readAll = async (): Promise<BenchRow> => {
  const dir = scratch('read');
  const ledgerFile = dir.file('ledger.sqlite');
  const plain = openPlain(dir.file('plain.sqlite'), 'NORMAL');
  const writer = createLedger(openSqliteStore(ledgerFile));
  for (let at = 0; at < READ_EVENTS; at += BATCH_SIZE) {
    const batch = events(BATCH_SIZE, at);
    const stream = `session-${at % 20}`;
    await writer.append(stream, batch);
    plain.insertBatch(stream, at, batch.map((item) => ({ ...item, data: { ...(item.data as object), hash: 'x'.repeat(64) } })));
  }
  await writer.store.close();
  const store = openSqliteStore(ledgerFile);
  const storeRate = await medianRate(
    READ_EVENTS,
    () => undefined,
    async () => {
      let count = 0;
      for await (const page of readAllPages(store, 'start', PAGE)) count += page.length;
      if (count !== READ_EVENTS) throw new Error(`read ${count} events, wrote ${READ_EVENTS}`);
    },
  );
  const plainRate = await medianRate(READ_EVENTS, () => undefined, () => void plain.readAll(PAGE));
  await store.close();
  plain.close();
  dir.remove();
  return compared(
    `sqlite readAll, pages of ${PAGE}`,
    'events/s',
    storeRate,
    'plain better-sqlite3 SELECT pages + JSON.parse',
    plainRate,
  );
};

export const rows = async (): Promise<BenchRow[]> => [
  await singleAppends('normal'),
  await singleAppends('full'),
  await batchedAppends(),
  await readAll(),
];
