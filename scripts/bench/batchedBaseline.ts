import { newId } from '@session-ledger/core';
import type { Trial } from './measure.js';
import { openPlain, type PlainSqlite } from './plainSqlite.js';
import { plainEvents } from './plainEvents.js';

/**
 * The in-process group-commit row's baseline and its ceilings' (groupCommit.ts, groupLayout.ts,
 * writePathCeiling.ts): `count` bench messages as plain better-sqlite3 inserts, 1,000 a transaction,
 * to one stream, synchronous=NORMAL, in a fresh file of `dir` each trial.
 */
export const batchedInserts = (dir: { file: (name: string) => string }, count: number): Trial<{ plain: PlainSqlite; payload: ReturnType<typeof plainEvents> }> => ({
  prepare: () => ({ plain: openPlain(dir.file(`${newId()}.plain`), 'NORMAL'), payload: plainEvents(count) }),
  work: ({ plain, payload }) => {
    for (let at = 0; at < payload.length; at += 1000) plain.insertBatch('session-bench', at, payload.slice(at, at + 1000));
  },
  cleanup: ({ plain }) => plain.close(),
});
