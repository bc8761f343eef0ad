import { createLedger, newId, readAllPages, type NewEvent } from '@session-ledger/core';
import { openSqliteStore, type Durability } from '@session-ledger/store-sqlite';
import { compared, compareRates, scratch } from './measure.js';
import { openPlain } from './plainSqlite.js';
import type { BenchRow } from './types.js';

/** Issue 2: the SQLite store through the hash-chained ledger, against plain better-sqlite3. */
const SINGLE = { normal: 1000, full: 100 } as const;
const SYNC = { normal: 'NORMAL', full: 'FULL' } as const;
const BATCH_SIZE = 100;
const BATCHES = 50;
const READ_EVENTS = 20_000;
const PAGE = 1000;

const TEXT = 'The assistant replied with a short paragraph about the weather and asked a question. '.repeat(3);
const event = (n: number): NewEvent => ({ id: newId(), type: 'turn.appended', data: { role: 'assistant', n, text: TEXT } });
const events = (count: number, start = 0) => Array.from({ length: count }, (_, index) => event(start + index));

/** Appends `payload` in batches of `size` through the ledger, each at its exact expected revision. */
const ledgerAppends = async (ledger: ReturnType<typeof createLedger>, payload: NewEvent[], size: number) => {
  let expectedRevision: bigint | 'no_stream' = 'no_stream';
  for (let at = 0; at < payload.length; at += size) {
    const batch = payload.slice(at, at + size);
    expectedRevision = (await ledger.append('session-bench', batch, { expectedRevision })).nextExpectedRevision;
  }
};

/**
 * Appends `payload` one event at a time with no expected revision ('any'), as a harness that keeps no
 * revision does: each event's id is looked for first, so that a retry is a no-op.
 */
const looseAppends = async (ledger: ReturnType<typeof createLedger>, payload: NewEvent[]) => {
  for (const item of payload) await ledger.append('session-bench', [item]);
};

const appendRow = async (durability: Durability, count: number, size: number, expected: 'exact' | 'any' = 'exact'): Promise<BenchRow> => {
  const dir = scratch('append');
  const rates = await compareRates(
    count,
    {
      prepare: () => ({ ledger: createLedger(openSqliteStore(dir.file(`${newId()}.sqlite`), { durability })), payload: events(count) }),
      work: ({ ledger, payload }) => (expected === 'any' ? looseAppends(ledger, payload) : ledgerAppends(ledger, payload, size)),
      cleanup: ({ ledger }) => ledger.store.close(),
    },
    {
      prepare: () => ({ plain: openPlain(dir.file(`${newId()}.plain`), SYNC[durability]), payload: events(count) }),
      work: ({ plain, payload }) => {
        for (let at = 0; at < payload.length; at += size) plain.insertBatch('session-bench', at, payload.slice(at, at + size));
      },
      cleanup: ({ plain }) => plain.close(),
    },
  );
  dir.remove();
  const what = size === 1 ? 'single-event appends' : `batched appends (${size} events a batch)`;
  const plain = size === 1 ? 'insert, one transaction each' : `inserts, ${size} a transaction`;
  return compared(
    `sqlite ${what}: ledger, ${expected === 'any' ? "expected revision any (each event's id looked up)" : 'exact revision'}, synchronous=${SYNC[durability]}`,
    'events/s',
    rates.subject,
    `plain better-sqlite3 ${plain}, synchronous=${SYNC[durability]}`,
    rates.baseline,
  );
};

const readAllRow = async (): Promise<BenchRow> => {
  const dir = scratch('read');
  const ledgerFile = dir.file('ledger.sqlite');
  const plain = openPlain(dir.file('plain.sqlite'), 'NORMAL');
  const writer = createLedger(openSqliteStore(ledgerFile));
  for (let at = 0; at < READ_EVENTS; at += BATCH_SIZE) {
    const batch = events(BATCH_SIZE, at);
    const stream = `session-${at % 20}`;
    await writer.append(stream, batch);
    // The same rows, with as many bytes of JSON as the ledger's chain metadata adds.
    plain.insertBatch(stream, at, batch.map((item) => ({ ...item, data: { ...(item.data as object), prevHash: 'x'.repeat(64), hash: 'x'.repeat(64) } })));
  }
  await writer.store.close();
  const store = openSqliteStore(ledgerFile);
  const rates = await compareRates(
    READ_EVENTS,
    {
      prepare: () => undefined,
      work: async () => {
        let count = 0;
        for await (const page of readAllPages(store, 'start', PAGE)) count += page.length;
        if (count !== READ_EVENTS) throw new Error(`read ${count} events, wrote ${READ_EVENTS}`);
      },
    },
    { prepare: () => undefined, work: () => void plain.readAll(PAGE) },
  );
  await store.close();
  plain.close();
  dir.remove();
  return compared(`sqlite readAll: whole store in pages of ${PAGE}`, 'events/s', rates.subject, 'plain better-sqlite3 SELECT pages + JSON.parse', rates.baseline);
};

export const rows = async (): Promise<BenchRow[]> => [
  await appendRow('normal', SINGLE.normal, 1),
  await appendRow('normal', SINGLE.normal, 1, 'any'),
  await appendRow('full', SINGLE.full, 1),
  await appendRow('normal', BATCH_SIZE * BATCHES, BATCH_SIZE),
  await readAllRow(),
];
