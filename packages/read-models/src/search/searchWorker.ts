import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { answerSearch, type SearchResult, type SearchStatement } from './runSearch.js';

/** What the search thread is given, asked and answers (searchThread.ts). */
export interface SearchThreadData {
  file: string;
}
export interface SearchAsk {
  id: number;
  statement: SearchStatement;
}
export type SearchReply = { id: number; result: SearchResult } | { id: number; error: string };

/** Searches on a thread of their own, on a read-only connection to the read models' file: each in a snapshot of its own. */
const { file } = workerData as SearchThreadData;
const db = new Database(file, { readonly: true, fileMustExist: true });
parentPort!.on('message', ({ id, statement }: SearchAsk) => {
  try {
    parentPort!.postMessage({ id, result: answerSearch(db, statement) } satisfies SearchReply);
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies SearchReply);
  }
});
