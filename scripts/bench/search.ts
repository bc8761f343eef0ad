import Database from 'better-sqlite3';
import { createLedger, createMemoryStore, readAllPages, type RecordedEvent } from '@session-ledger/core';
import type { SessionRecord } from '@session-ledger/events';
import { applySearchRecords, runSearch, searchModel } from '@session-ledger/read-models';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { compareRates, compared, scratch } from './measure.js';
import { benchMessage } from './messages.js';
import type { BenchRow } from './types.js';

/**
 * Issue 15, search: a query's p50 on a model of MESSAGES messages in SESSIONS conversations (ceiling
 * 50 ms), and what indexing costs an append (one message event applied in the append's transaction,
 * against the plain insert of the same event). SEARCH_BENCH_MESSAGES / SEARCH_BENCH_SESSIONS scale it.
 */
const MESSAGES = Number(process.env.SEARCH_BENCH_MESSAGES ?? 1_000_000);
const SESSIONS = Number(process.env.SEARCH_BENCH_SESSIONS ?? 10_000);
const QUERIES = 300;
const CEILING_MS = 50;

/** Deterministic: the same corpus and queries on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Syllables from English-like onsets and vowels, so words share trigrams about as much as a language's do. */
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'y', 'z', 'ch', 'sh', 'th', 'st', 'tr', 'pl', 'gr'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'ng', 'ck'];

/** 20,000 words used with a Zipf distribution (a few very common, most rare), plus identifiers and paths. */
const corpus = (next: () => number) => {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const words = Array.from({ length: 20_000 }, (_, index) => {
    let word = '';
    for (let n = 2 + (index % 3); n > 0; n -= 1) word += pick(ONSETS) + pick(VOWELS) + pick(CODAS);
    return `${word}${index % 7 === 0 ? `_${index}` : ''}`;
  });
  const cumulative: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= words.length; rank += 1) cumulative.push((total += 1 / rank));
  const zipf = () => {
    const target = next() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return words[low]!;
  };
  const text = (n: number) => {
    const out: string[] = [];
    for (let i = 8 + (n % 16); i > 0; i -= 1) out.push(zipf());
    if (n % 10 === 0) out.push(`src/${zipf()}/${zipf()}.ts`);
    return out.join(' ');
  };
  return { words, text };
};

const records = function* (text: (n: number) => string): Generator<SessionRecord[]> {
  const perSession = Math.ceil(MESSAGES / SESSIONS);
  let n = 0;
  for (let session = 0; session < SESSIONS; session += 1) {
    const sessionId = `s-${session}`;
    const at = new Date(1_700_000_000_000 + session * 60_000).toISOString();
    const batch: SessionRecord[] = [
      { sessionId, eventId: `${sessionId}-0`, revision: 0n, position: 0n, created: at, storedVersion: 1, type: 'session.started', data: { sessionId, rootId: sessionId, parentId: null, link: null, startedAt: at, source: session % 3 === 0 ? 'hermes' : 'cli' } },
    ];
    for (let m = 1; m <= perSession && n < MESSAGES; m += 1, n += 1) {
      batch.push({ sessionId, eventId: `${sessionId}-${m}`, revision: BigInt(m), position: 0n, created: at, storedVersion: 2, type: 'message.appended', data: { messageId: `m-${m}`, role: m % 2 === 0 ? 'assistant' : 'user', content: text(n), timestamp: at } });
    }
    yield batch;
  }
};

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Wall-clock and CPU milliseconds of each query (the CPU time does not move with the machine's other load). */
const queryLatencies = (db: Database.Database, words: string[], next: () => number): { wall: number[]; cpu: number[] } => {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < QUERIES + 20; i += 1) {
    // Uniform over the vocabulary (what a person looks for is mostly a distinctive word), every fifth two words.
    const pick = () => words[Math.floor(next() * words.length)]!;
    const q = i % 5 === 0 ? `${pick()} ${pick()}` : pick();
    const start = process.hrtime.bigint();
    const used = process.cpuUsage();
    runSearch(db, { q, limit: 20 });
    const { user, system } = process.cpuUsage(used);
    if (i >= 20) wall.push(Number(process.hrtime.bigint() - start) / 1e6), cpu.push((user + system) / 1000);
  }
  return { wall, cpu };
};

/** Real message events of one session, as a store records them (decoded by apply like any event). */
const appendedEvents = async (count: number): Promise<RecordedEvent[]> => {
  const store = createMemoryStore();
  const context = { ledger: createLedger(store) };
  await startSession(context, { id: 'bench-search' });
  for (let n = 0; n < count; n += 1) await appendMessage(context, 'bench-search', benchMessage(n));
  const events: RecordedEvent[] = [];
  for await (const page of readAllPages(store)) events.push(...page);
  return events;
};

const plainTable = (db: Database.Database) => {
  db.exec('CREATE TABLE IF NOT EXISTS events (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL, id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, created TEXT NOT NULL)');
  return db.prepare<[string, number, string, string, string, string, string]>('INSERT INTO events (stream, revision, id, type, data, metadata, created) VALUES (?, ?, ?, ?, ?, ?, ?)');
};

/**
 * `perTransaction` 1: an inline model on single appends; 32: a group commit, or a subscription page.
 * FTS5 writes its pending terms as a new index segment at every commit, which is most of the cost.
 */
const indexingCost = async (perTransaction: number): Promise<BenchRow> => {
  const COUNT = 2048;
  const events = await appendedEvents(COUNT + 1);
  const [started, ...messages] = events;
  const batches: RecordedEvent[][] = [];
  for (let at = 0; at < COUNT; at += perTransaction) batches.push(messages.slice(at, at + perTransaction));
  const trial = (index: boolean) => ({
    prepare: () => {
      const dir = scratch('search-append');
      const db = new Database(dir.file('append.sqlite'));
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      const insert = plainTable(db);
      searchModel.create(db);
      searchModel.apply(db, [started!]);
      return { dir, db, insert };
    },
    work: ({ db, insert }: { db: Database.Database; insert: ReturnType<typeof plainTable> }) => {
      for (const batch of batches) {
        db.transaction(() => {
          for (const event of batch) insert.run(event.streamName, Number(event.revision), event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata), event.created);
          if (index) searchModel.apply(db, batch);
        })();
      }
    },
    cleanup: ({ dir, db }: { dir: ReturnType<typeof scratch>; db: Database.Database }) => {
      db.close();
      dir.remove();
    },
  });
  const { subject, baseline } = await compareRates(COUNT, trial(true), trial(false), 5);
  const label = perTransaction === 1 ? 'one event a transaction' : `${perTransaction} events a transaction`;
  return compared(`search: appended messages indexed in the same transaction (${label}, sqlite normal)`, 'messages/s', subject, 'the same plain inserts without the search model', baseline);
};

export const rows = async (): Promise<BenchRow[]> => {
  const dir = scratch('search');
  const db = new Database(dir.file('search.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    searchModel.create(db);
    const next = random(15);
    const { words, text } = corpus(next);
    const built = process.hrtime.bigint();
    const apply = db.transaction((batch: SessionRecord[]) => applySearchRecords(db, batch));
    for (const batch of records(text)) apply(batch);
    const buildSeconds = Number(process.hrtime.bigint() - built) / 1e9;
    process.stderr.write(`bench search: indexed ${MESSAGES} messages in ${SESSIONS} sessions in ${buildSeconds.toFixed(1)} s\n`);
    const { wall, cpu } = queryLatencies(db, words, next);
    const round = (value: number) => Math.round(value * 100) / 100;
    const scale = `${MESSAGES.toLocaleString('en-US')} messages in ${SESSIONS.toLocaleString('en-US')} sessions`;
    const p50 = percentile(wall, 0.5);
    return [
      { name: `search: query p50 (${scale}, one or two words, limit 20)`, unit: 'ms', value: round(p50), baseline: { name: 'issue 15 ceiling', value: CEILING_MS }, ratio: round(p50 / CEILING_MS) },
      { name: `search: query p95 (${scale})`, unit: 'ms', value: round(percentile(wall, 0.95)), baseline: null, ratio: null },
      { name: `search: query p50 CPU time (${scale})`, unit: 'ms', value: round(percentile(cpu, 0.5)), baseline: null, ratio: null },
      { name: `search: rebuild from records (${scale})`, unit: 'messages/s', value: Math.round(MESSAGES / buildSeconds), baseline: null, ratio: null },
      await indexingCost(1),
      await indexingCost(32),
    ];
  } finally {
    db.close();
    dir.remove();
  }
};
