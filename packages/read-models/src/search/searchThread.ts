import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { builtWorker } from '@session-ledger/core';
import { answerSearch, searchStatement, type SearchOptions, type SearchResult, type SearchStatement } from './runSearch.js';
import type { SearchAsk, SearchReply, SearchThreadData } from './searchWorker.js';

/** How long a search thread with nothing asked stays up: a search within it skips the thread's start (tens of ms). */
const IDLE_MS = 10_000;

interface Asked {
  db: Database.Database;
  statement: SearchStatement;
  resolve: (result: SearchResult) => void;
  reject: (error: Error) => void;
}

interface SearchThread {
  worker: Worker;
  asked: Map<number, Asked>;
  idle?: NodeJS.Timeout;
}

/** One thread per read-models file, shared by every search of this process. */
const threads = new Map<string, SearchThread>();
let nextAsk = 0;

/** What a thread that failed had been asked is answered here, on the caller's connection. */
const answerHere = (asked: Asked): void => {
  try {
    asked.resolve(answerSearch(asked.db, asked.statement));
  } catch (error) {
    asked.reject(error as Error);
  }
};

const startThread = (file: string, script: URL): SearchThread => {
  const thread: SearchThread = { worker: new Worker(script, { workerData: { file } satisfies SearchThreadData }), asked: new Map() };
  const fail = () => {
    if (threads.get(file) === thread) threads.delete(file);
    clearTimeout(thread.idle);
    const asked = [...thread.asked.values()];
    thread.asked.clear();
    asked.forEach(answerHere);
  };
  thread.worker.on('message', (reply: SearchReply) => {
    const asked = thread.asked.get(reply.id);
    if (!asked) return;
    thread.asked.delete(reply.id);
    if ('error' in reply) asked.reject(new Error(reply.error));
    else asked.resolve(reply.result);
    if (thread.asked.size > 0) return;
    // Nothing asked: the thread no longer keeps the process alive, and ends after IDLE_MS.
    thread.worker.unref();
    thread.idle = setTimeout(() => {
      if (threads.get(file) === thread) threads.delete(file);
      void thread.worker.terminate();
    }, IDLE_MS).unref();
  });
  thread.worker.on('error', fail);
  thread.worker.on('exit', fail);
  return thread;
};

/**
 * A search answered on a worker thread with its own read-only connection to `db`'s file, so that a
 * search of a word in every message (bm25 ranks every match: 0.3-0.6 s for 320,000) holds that
 * thread, not the caller's event loop (a server's appends and other requests). Bad input is
 * `invalid_input`, checked here first. An in-memory model, or an unbuilt package, is searched here.
 */
export const searchOffThread = async (db: Database.Database, options: SearchOptions): Promise<SearchResult> => {
  const statement = searchStatement(options);
  const script = builtWorker(import.meta.url, 'search', 'searchWorker');
  if (db.memory || !script) return answerSearch(db, statement);
  let thread = threads.get(db.name);
  if (!thread) threads.set(db.name, (thread = startThread(db.name, script)));
  clearTimeout(thread.idle);
  thread.worker.ref();
  const id = (nextAsk += 1);
  const { worker, asked } = thread;
  return new Promise((resolve, reject) => {
    asked.set(id, { db, statement, resolve, reject });
    worker.postMessage({ id, statement } satisfies SearchAsk);
  });
};
