import { createLedger, newId, readAllPages, type EventStore } from '@session-ledger/core';
import { catalogPage, catalogReadModel, inlineReadModels } from '@session-ledger/read-models';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { compared, compareRates, scratch } from './measure.js';
import { benchMessage } from './messages.js';
import type { BenchRow } from './types.js';

/**
 * Issue 15: the session catalog read model on a ledger of SESSIONS x PER_SESSION messages (default
 * 10,000 x 100 = 1,000,000; CATALOG_BENCH_SESSIONS scales it), written by direct batched appends of
 * valid session events (the writer API would take minutes to build it). Rows beside their ceilings:
 * a page of 20 <= 20 ms; catch-up (a rebuild from $all) >= 0.5 x readAll of the same ledger; single
 * appends with the catalog inline >= 0.8 x the same appends without it.
 */
const SESSIONS = Number(process.env.CATALOG_BENCH_SESSIONS ?? 10_000);
const PER_SESSION = 100;
const SOURCES = ['cli', 'hermes', 'telegram'];
const T0 = Date.parse('2025-01-01T00:00:00Z');

const sessionEvents = (index: number) => {
  const id = `bench-${String(index).padStart(6, '0')}-${newId().slice(0, 8)}`;
  const at = (n: number) => new Date(T0 + index * 60_000 + n * 1000).toISOString();
  return {
    stream: `session-${id}`,
    events: [
      {
        id: newId(),
        type: 'session.started',
        data: { sessionId: id, rootId: id, parentId: null, link: null, startedAt: at(0), source: SOURCES[index % 3]!, model: 'bench-model', title: `conversation ${index}` },
        metadata: { schemaVersion: 1 },
      },
      ...Array.from({ length: PER_SESSION }, (_, n) => ({
        id: newId(),
        type: 'message.appended',
        data: { content: `message ${n}: a few words of conversation, about the length a person types.`, messageId: `m-${n}`, role: n % 2 ? 'assistant' : 'user', timestamp: at(n + 1) },
        metadata: { schemaVersion: 2 },
      })),
    ],
  };
};

/** Fills a store without read models, a batch of whole sessions per turn of the event loop. */
const fill = async (store: EventStore) => {
  for (let index = 0; index < SESSIONS; index += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, SESSIONS - index) }, (_, k) => {
        const { stream, events } = sessionEvents(index + k);
        return store.appendToStream(stream, events, { expectedRevision: 'no_stream' });
      }),
    );
  }
};

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export const rows = async (): Promise<BenchRow[]> => {
  const dir = scratch('catalog');
  const file = dir.file('ledger.sqlite');
  const events = SESSIONS * (PER_SESSION + 1);
  const built = process.hrtime.bigint();
  {
    const store = openSqliteStore(file);
    await fill(store);
    await store.close();
  }
  process.stderr.write(`bench catalog: ${SESSIONS} sessions, ${events} events written in ${seconds(built).toFixed(1)} s\n`);

  // The catalog built on open (not timed: it warms both sides), then a rebuild from $all beside a
  // readAll of the same ledger, alternated so that both see the same machine load.
  const { hook, readModels } = inlineReadModels([catalogReadModel]);
  const store = openSqliteStore(file, { onCommit: hook });
  const rebuildVsRead = await compareRates(
    events,
    { prepare: () => undefined, work: () => readModels.rebuild('catalog') },
    {
      prepare: () => undefined,
      work: async () => {
        let read = 0;
        for await (const page of readAllPages(store)) read += page.length;
        if (read !== events) throw new Error(`read ${read} events, expected ${events}`);
      },
    },
    1,
  );

  // A page of 20: the first, and one deep in the catalog by its cursor (server-side: the query and the rows).
  const db = await readModels.ready('catalog');
  const now = new Date();
  let cursor: string | null = null;
  for (let n = 0; n < Math.floor(SESSIONS / 40); n += 1) cursor = catalogPage(db, { limit: 20, cursor, now }).nextCursor;
  const pageTimes: number[] = [];
  for (let run = 0; run < 200; run += 1) {
    const start = process.hrtime.bigint();
    catalogPage(db, { limit: 20, cursor: run % 2 ? cursor : null, now, source: run % 4 === 3 ? 'hermes' : undefined });
    pageTimes.push(Number(process.hrtime.bigint() - start) / 1e3);
  }
  await store.close();
  dir.remove();

  // Single appends (each its own commit), with and without the catalog inline, on fresh ledgers.
  const appends = scratch('catalog-appends');
  const COUNT = 1000;
  type Prepared = { ledger: ReturnType<typeof createLedger>; ready: () => Promise<unknown> };
  const trial = (mode: 'inline' | 'deferred' | 'none') => ({
    prepare: async (): Promise<Prepared> => {
      // The catalog's own upkeep is deferred: the inline row forces it inline to measure what that costs.
      const models = mode === 'none' ? undefined : inlineReadModels([{ ...catalogReadModel, upkeep: mode }], { appends: mode });
      const context = { ledger: createLedger(openSqliteStore(appends.file(`${newId()}.sqlite`), { onCommit: models?.hook })) };
      await startSession(context, { id: 'single' });
      return { ...context, ready: async () => models?.readModels.ready('catalog') };
    },
    work: async (context: Prepared) => {
      for (let n = 0; n < COUNT; n += 1) await appendMessage(context, 'single', benchMessage(n));
      await context.ready(); // deferred: the read that folds them in is part of the cost
    },
    cleanup: (context: Prepared) => context.ledger.store.close(),
  });
  const single = await compareRates(COUNT, trial('inline'), trial('none'), 5);
  const deferred = await compareRates(COUNT, trial('deferred'), trial('none'), 5);
  appends.remove();

  const scale = `${SESSIONS.toLocaleString('en-US')} sessions, ${(SESSIONS * PER_SESSION).toLocaleString('en-US')} messages`;
  return [
    compared(`catalog: a page of 20 (first, deep by cursor, by source), median server-side, ${scale}`, 'µs', median(pageTimes), 'ceiling 20 ms (ratio <= 1)', 20_000),
    compared(`catalog: catch-up from $all (projections rebuild), ${scale}`, 'events/s', rebuildVsRead.subject, 'readAll of the same ledger (target ratio >= 0.5)', rebuildVsRead.baseline),
    compared('catalog: single appendMessage, each its own commit, with the catalog inline', 'messages/s', single.subject, 'the same appends without read models (target ratio >= 0.8)', single.baseline),
    compared('catalog: the same appends with the catalog deferred, then one read that folds them in', 'messages/s', deferred.subject, 'the same appends without read models', deferred.baseline),
  ];
};
