import { createLedger, newId, type EventStore } from '@session-ledger/core';
import {
  createMarkdownMirror,
  createMemoryLedger,
  deliveryOf,
  startMemoryFanOut,
  type MemoryMutation,
  type MemoryOperation,
} from '@session-ledger/memory';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { compared, compareRates, scratch } from './measure.js';
import type { BenchRow } from './types.js';

/** Issue 5: the memory ledger's batches and its fan-out to the Markdown mirror (SQLite store). */
const BATCHES = 20;
const OPS = 100;
const PRELOADED = 20;
const MUTATIONS = 200;
const BIG = { memory: 1_000_000, user: 1_000_000 };

const fact = (n: number) => `Fact ${n}: the project builds with tsc -b and tests with vitest`;

/** 100 operations: add, replace, remove of 33 facts, and one add that stays. */
const batch = (round: number): MemoryOperation[] => {
  const ops: MemoryOperation[] = [];
  for (let i = 0; i < 33; i += 1) {
    const key = `r${round}-${i}`;
    ops.push({ op: 'add', target: 'memory', content: fact(0).replace('0', key) });
    ops.push({ op: 'replace', target: 'memory', old: `Fact ${key}:`, content: `Fact ${key} (revised): builds with tsc -b` });
    ops.push({ op: 'remove', target: 'memory', old: `Fact ${key} (revised)` });
  }
  ops.push({ op: 'add', target: 'user', content: `Preference from round ${round}` });
  return ops;
};

const preload = async (store: EventStore) => {
  const memory = createMemoryLedger(store, { budgets: BIG });
  await memory.apply(Array.from({ length: PRELOADED }, (_, n) => ({ op: 'add' as const, target: 'memory' as const, content: fact(n + 1) })));
  return memory;
};

const batches = async (): Promise<BenchRow> => {
  const dir = scratch('memory-batch');
  const total = BATCHES * OPS;
  const rates = await compareRates(
    total,
    {
      prepare: async () => {
        const store = openSqliteStore(dir.file(`${newId()}.sqlite`));
        return { store, memory: await preload(store) };
      },
      work: async ({ memory }) => {
        for (let round = 0; round < BATCHES; round += 1) {
          const result = await memory.apply(batch(round));
          if (result.receipts.length !== OPS) throw new Error('missing receipts');
        }
      },
      cleanup: ({ store }) => store.close(),
    },
    {
      prepare: async () => {
        const store = openSqliteStore(dir.file(`${newId()}.sqlite`));
        await preload(store);
        return { ledger: createLedger(store) };
      },
      work: async ({ ledger }) => {
        for (let round = 0; round < BATCHES; round += 1) {
          const events = batch(round).map((op, index) => ({ id: newId(), type: `memory.bench_${op.op}`, data: { index, ...(op as Record<string, string>) } }));
          await ledger.append('memory-default', events);
        }
      },
      cleanup: ({ ledger }) => ledger.store.close(),
    },
  );
  dir.remove();
  return compared(
    `memory ${OPS}-operation batch: read, resolve, one conditional append, receipts (${PRELOADED} entries present)`,
    'ops/s',
    rates.subject,
    `ledger append of the same ${OPS} events a batch, no read or resolution`,
    rates.baseline,
  );
};

/** A store holding MUTATIONS committed mutations: adds, then replaces cycling over 30 entries. */
const mutationsIn = async (file: string): Promise<void> => {
  const store = openSqliteStore(file);
  const memory = createMemoryLedger(store, { budgets: BIG });
  for (let n = 0; n < 30; n += 1) await memory.add('memory', `Entry ${n} v0`);
  for (let n = 30; n < MUTATIONS; n += 1) await memory.replace('memory', `Entry ${n % 30} v`, `Entry ${n % 30} v${n}`);
  await store.close();
};

const fanOut = async (): Promise<BenchRow> => {
  const dir = scratch('memory-fanout');
  const source = dir.file('source.sqlite');
  await mutationsIn(source);
  const rates = await compareRates(
    MUTATIONS,
    {
      prepare: () => ({
        store: openSqliteStore(source),
        mirror: createMarkdownMirror({ dir: dir.file(newId()), name: `bench-${newId().slice(0, 8)}` }),
      }),
      work: async ({ store, mirror }) => {
        const running = startMemoryFanOut(store, [mirror], { onWarning: () => undefined });
        await running.caughtUp;
        await running.stop();
      },
      cleanup: ({ store }) => store.close(),
    },
    {
      prepare: async () => {
        const store = openSqliteStore(source);
        const events = await store.readStream('memory-default');
        await store.close();
        const mutations = events.map(deliveryOf).flatMap((delivery): MemoryMutation[] => (delivery?.kind === 'deliver' ? [delivery.mutation] : []));
        return { mutations, mirror: createMarkdownMirror({ dir: dir.file(newId()) }) };
      },
      work: async ({ mutations, mirror }) => {
        for (const mutation of mutations) await mirror.apply(mutation);
      },
    },
  );
  dir.remove();
  return compared(
    'memory fan-out to the Markdown mirror (durable subscription, checkpoint per mutation, atomic files)',
    'mutations/s',
    rates.subject,
    'the same mutations applied to the mirror in a plain loop (no subscription, no checkpoints)',
    rates.baseline,
  );
};

export const rows = async (): Promise<BenchRow[]> => [await batches(), await fanOut()];
