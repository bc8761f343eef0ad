import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { builtWorker } from '@session-ledger/core';
import { answerSearch, searchStatement, type SearchOptions, type SearchResult, type SearchStatement } from './runSearch.js';
import type { SearchAsk, SearchReply, SearchThreadData } from './searchWorker.js';
import { searchTimeout } from '../errors.js';

/**
 * How long one search may hold its thread. FTS5 ranks and snips every trigram match, and a phrase
 * repeated inside a long run of one character ("aaaa" in a tool result of 100,000 a's, "0000" in a
 * hex dump) matches at every offset: 90 s for 100 KB, over 20 minutes for 10 MB, while every other
 * search waited and a client leaving did not stop it (outside test, session 35, helper-96 F1). A
 * word in every message of 320,000 takes 0.3-0.6 s. Past the deadline the thread is stopped, the
 * search answered `search_timeout`, and the searches queued behind it asked again on a new thread.
 */
export const SEARCH_DEADLINE_MS = 10_000;

/** How long a search thread with nothing asked stays up: a search within it skips the thread's start (tens of ms). */
const IDLE_MS = 10_000;

interface Asked {
  db: Database.Database;
  statement: SearchStatement;
  resolve: (result: SearchResult) => void;
  reject: (error: Error) => void;
  deadline: NodeJS.Timeout;
}

interface SearchThread {
  worker: Worker;
  script: URL;
  asked: Map<number, Asked>;
  idle?: NodeJS.Timeout;
}

/** One thread per read-models file, shared by every search of this process. */
const threads = new Map<string, SearchThread>();
let nextAsk = 0;

/** What a thread that failed had been asked is answered here, on the caller's connection. */
const answerHere = (asked: Asked): void => {
  clearTimeout(asked.deadline);
  try {
    asked.resolve(answerSearch(asked.db, asked.statement));
  } catch (error) {
    asked.reject(error as Error);
  }
};

const startThread = (file: string, script: URL): SearchThread => {
  const thread: SearchThread = { worker: new Worker(script, { workerData: { file } satisfies SearchThreadData }), script, asked: new Map() };
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
    clearTimeout(asked.deadline);
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

/** Gives an ask to the file's thread (started when there is none). */
const ask = (file: string, script: URL, id: number, asked: Asked): void => {
  let thread = threads.get(file);
  if (!thread) threads.set(file, (thread = startThread(file, script)));
  clearTimeout(thread.idle);
  thread.worker.ref();
  thread.asked.set(id, asked);
  thread.worker.postMessage({ id, statement: asked.statement } satisfies SearchAsk);
};

/**
 * A search past its deadline: the thread holding it is stopped (a search cannot be interrupted inside
 * SQLite from another thread), it is answered `search_timeout`, and what was queued behind it is asked
 * again on a new thread. Asks are answered in order, so with one deadline for all (the default) the one
 * past it is the one running; a queued search given a shorter deadline is answered so too, and the
 * running one asked again.
 */
const expire = (file: string, id: number, deadlineMs: number): void => {
  const thread = threads.get(file);
  const asked = thread?.asked.get(id);
  if (!thread || !asked) return;
  threads.delete(file);
  clearTimeout(thread.idle);
  const queued = [...thread.asked].filter(([other]) => other !== id);
  thread.asked.clear();
  void thread.worker.terminate();
  asked.reject(searchTimeout(asked.statement.q, deadlineMs));
  for (const [other, behind] of queued) ask(file, thread.script, other, behind);
};

/**
 * A search answered on a worker thread with its own read-only connection to `db`'s file, so that a
 * search of a word in every message (bm25 ranks every match: 0.3-0.6 s for 320,000) holds that
 * thread, not the caller's event loop (a server's appends and other requests), and at most
 * `deadlineMs` (SEARCH_DEADLINE_MS). Bad input is `invalid_input`, checked here first. An in-memory
 * model, or an unbuilt package, is searched here, without a deadline.
 */
export const searchOffThread = async (db: Database.Database, options: SearchOptions, deadlineMs = SEARCH_DEADLINE_MS): Promise<SearchResult> => {
  const statement = searchStatement(options);
  const script = builtWorker(import.meta.url, 'search', 'searchWorker');
  if (db.memory || !script) return answerSearch(db, statement);
  const id = (nextAsk += 1);
  const file = db.name;
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => expire(file, id, deadlineMs), deadlineMs);
    ask(file, script, id, { db, statement, resolve, reject, deadline });
  });
};
