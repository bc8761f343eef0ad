import { createLedger } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { batchedInserts } from './batchedBaseline.js';
import { compared, compareRates, scratch } from './measure.js';
import { benchMessage } from './messages.js';
import { nullStore } from './nullStore.js';
import type { BenchRow } from './types.js';

/**
 * Issue 14's in-process ceiling from the other side: the 32-writer row's JavaScript with no store
 * (nullStore.ts: no SQL, no leaf hash), against the row's baseline, plain inserts of 1,000 rows a
 * transaction. A message costs at least this JavaScript plus its SQL, and its SQL at least a plain
 * row's, so the row's ratio is at most 1 / (1 / this ratio + 1): below 0.5 whenever this is below 1.
 */
const WRITERS = 32;
const EACH = 100;

export const writePathRow = async (): Promise<BenchRow> => {
  const dir = scratch('write-path');
  const count = WRITERS * EACH;
  const writers = Array.from({ length: WRITERS }, (_, index) => `w-${index}`);
  const rates = await compareRates(
    count,
    {
      prepare: async () => {
        const context = { ledger: createLedger(nullStore()) };
        for (const id of writers) await startSession(context, { id });
        return context;
      },
      work: async (context) => {
        await Promise.all(writers.map(async (id) => {
          for (let n = 0; n < EACH; n += 1) await appendMessage(context, id, benchMessage(n));
        }));
      },
    },
    batchedInserts(dir, count),
    9,
  );
  dir.remove();
  return compared(
    `ceiling: the write path's JavaScript for ${WRITERS} writers, appendMessage each on its own session, on a store that writes nothing`,
    'messages/s',
    rates.subject,
    "plain better-sqlite3 inserts, 1,000 a transaction, synchronous=NORMAL (the in-process row's baseline)",
    rates.baseline,
  );
};
