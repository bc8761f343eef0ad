import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { builtWorker, type IndexCheck } from '@session-ledger/core';
import { checkIndexes } from './check.js';
import type { IndexAnswer, IndexRequest } from './worker.js';

/**
 * `EventLog.indexes` for the SQLite store: on a worker thread with its own read-only connection (one
 * WAL snapshot; writers go on, and a server's thread is not held for the seconds a large file takes);
 * on this connection, in one read transaction, for an in-memory ledger or an unbuilt package.
 */
export const indexCheck =
  (db: Database.Database) =>
  async (max: number): Promise<IndexCheck> => {
    const script = builtWorker(import.meta.url, 'indexes', 'worker');
    if (db.memory || !script) return db.transaction(() => checkIndexes(db, max))();
    const worker = new Worker(script, { workerData: { file: db.name, max } satisfies IndexRequest });
    try {
      const answer = await new Promise<IndexAnswer>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`the index check's worker exited with ${code}`)));
      });
      if ('error' in answer) throw new Error(answer.error);
      return answer.check;
    } finally {
      await worker.terminate();
    }
  };
