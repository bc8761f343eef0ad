import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { checkIndexes } from './check.js';

/** What the index worker is given, and its answer (indexes/run.ts). */
export interface IndexRequest {
  file: string;
  max: number;
}
export type IndexAnswer = { check: ReturnType<typeof checkIndexes> } | { error: string };

/** The index check on its own thread and read-only connection, in one read transaction: the server's thread keeps answering. */
const { file, max } = workerData as IndexRequest;
try {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const check = db.transaction(() => checkIndexes(db, max))();
  db.close();
  parentPort!.postMessage({ check } satisfies IndexAnswer);
} catch (error) {
  parentPort!.postMessage({ error: String(error) } satisfies IndexAnswer);
}
