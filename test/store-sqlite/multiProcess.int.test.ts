import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, newId, type EventStore } from '@session-ledger/core';
import { ID_BATCH, openSqliteStore, SCHEMA_VERSION } from '@session-ledger/store-sqlite';
import { eventsIn, iteratorOf, pullUntil } from '../conformance/helpers.js';
import { tempLedger } from './tempLedger.js';
import { buildStore, startWriter, type WriterProcess, type WriterReply } from './writerProcess.js';

const ROUNDS = 50;

describe('SQLite store shared by several processes on one file', () => {
  const temp = tempLedger('multi');
  let store: EventStore;
  let writers: WriterProcess[];

  beforeAll(async () => {
    buildStore();
    store = openSqliteStore(temp.file);
    writers = await Promise.all([startWriter(temp.file), startWriter(temp.file)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(writers?.map((writer) => writer.stop()) ?? []);
    await store?.close();
    temp.remove();
  });

  /** Both processes append their own events to one stream at the same expected revision, at once. */
  const race = async (stream: string, expected: string): Promise<{ ids: string[][]; results: WriterReply[] }> => {
    const ids = writers.map(() => [newId(), newId()]);
    const results = await Promise.all(
      writers.map((writer, index) => writer.send({ cmd: 'append', stream, expected, ids: ids[index], writer: index })),
    );
    return { ids, results };
  };

  const expectOneWinner = async (stream: string, head: string[], { ids, results }: Awaited<ReturnType<typeof race>>) => {
    const outcomes = results.map((result) => (result.ok ? 'ok' : result.type));
    expect([...outcomes].sort()).toEqual(['ok', 'wrong_expected_version']);
    const winner = ids[outcomes.indexOf('ok')]!;
    const events = await store.readStream(stream);
    expect(events.map((event) => event.id)).toEqual([...head, ...winner]);
    expect(events.map((event) => event.revision)).toEqual(events.map((_, index) => BigInt(index)));
  };

  it(`two processes racing at the same exact revision: exactly one wins, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const stream = `race-exact-${round}-${newId()}`;
      const head = [newId()];
      await store.appendToStream(stream, [{ id: head[0]!, type: 'head', data: {} }], { expectedRevision: 'no_stream' });
      await expectOneWinner(stream, head, await race(stream, '0'));
    }
  });

  it(`two processes racing to create a stream with no_stream: exactly one wins, ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const stream = `race-new-${round}-${newId()}`;
      await expectOneWinner(stream, [], await race(stream, 'no_stream'));
    }
  });

  it('the file stays intact and no stream holds a revision twice', () => {
    const db = new Database(temp.file, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const duplicates = db.prepare('SELECT count(*) FROM (SELECT stream, revision FROM events GROUP BY stream, revision HAVING count(*) > 1)').pluck().get();
      expect(duplicates).toBe(0);
    } finally {
      db.close();
    }
  });

  it('ledger appends with any from two processes all land and never fork the hash chain', async () => {
    const stream = `race-ledger-${newId()}`;
    const perWriter = 25;
    await Promise.all(
      writers.map(async (writer, index) => {
        for (let n = 0; n < perWriter; n += 1) {
          const reply = await writer.send({ cmd: 'ledger', stream, expected: 'any', ids: [newId()], writer: index });
          expect(reply).toMatchObject({ ok: true });
        }
      }),
    );
    expect(await store.readStream(stream)).toHaveLength(2 * perWriter);
    expect((await createLedger(store).verify({ stream })).broken).toBeNull();
  });

  it(`the same events appended under any by two processes at once, one at a time past ${ID_BATCH * 2} ids: each is stored once`, async () => {
    // Event ids are indexed in batches (schema version 6): each process must find the other's
    // events whether their ids are indexed yet or not, and whoever indexed them.
    const stream = `race-retry-${newId()}`;
    const ids = Array.from({ length: ID_BATCH * 2 + 50 }, () => newId());
    const replies = await Promise.all(
      writers.map(async (writer, index) => {
        const out: WriterReply[] = [];
        for (const id of ids) out.push(await writer.send({ cmd: 'append', stream, expected: 'any', ids: [id], writer: index }));
        return out;
      }),
    );
    expect(replies.flat().filter((reply) => !reply.ok)).toEqual([]);
    const stored = (await store.readStream(stream)).map((event) => event.id);
    expect(stored.length).toBe(ids.length);
    expect([...stored].sort()).toEqual([...ids].sort());
    // both processes answered each id with the revision that holds it
    for (const reply of replies) expect(reply.map((answer) => stored[Number(answer.next)])).toEqual(ids);
  });

  it('a live subscription in this process sees appends made by another process', async () => {
    const stream = `live-${newId()}`;
    const subscription = store.subscribeToStream(stream);
    try {
      const iterator = iteratorOf(subscription);
      const items = await pullUntil(iterator, (seen) => seen.some((item) => item.kind === 'caught_up'));
      const ids = [newId(), newId(), newId()];
      for (const id of ids) expect(await writers[0]!.send({ cmd: 'append', stream, expected: 'any', ids: [id] })).toMatchObject({ ok: true });
      await pullUntil(iterator, (seen) => eventsIn(seen).length >= 3, items);
      expect(eventsIn(items).map((event) => event.id)).toEqual(ids);
    } finally {
      await subscription.close();
    }
  });

  it('a live $all subscription in this process sees appends made by another process, in commit order', async () => {
    const prefix = `live-all-${newId()}-`;
    const { position } = await store.appendToStream(`${prefix}start`, [{ id: newId(), type: 'start', data: {} }]);
    const subscription = store.subscribeToAll({ fromPosition: position, filter: { streamNamePrefixes: [prefix] } });
    try {
      const iterator = iteratorOf(subscription);
      const items = await pullUntil(iterator, (seen) => seen.some((item) => item.kind === 'caught_up'));
      const ids = writers.map(() => [newId(), newId()]);
      await Promise.all(writers.map((writer, index) => writer.send({ cmd: 'append', stream: `${prefix}${index}`, ids: ids[index] })));
      await pullUntil(iterator, (seen) => eventsIn(seen).length >= 4, items);
      const delivered = eventsIn(items);
      expect(new Set(delivered.map((event) => event.id))).toEqual(new Set(ids.flat()));
      const stored = (await store.readAll({ fromPosition: position + 1n })).filter((event) => event.streamName.startsWith(prefix));
      expect(delivered.map((event) => event.id)).toEqual(stored.map((event) => event.id));
    } finally {
      await subscription.close();
    }
  });
});

describe('SQLite store: several processes creating one new file at once', () => {
  const ROUNDS = 8;
  const PROCESSES = 4;
  const opener = fileURLToPath(new URL('./fixtures/openAndAppend.mjs', import.meta.url));
  const openInChild = (file: string) =>
    new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [opener, file], (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
    );
  beforeAll(() => buildStore(), 120_000);

  it(`every process opens it and writes, and the schema is created once (${ROUNDS} rounds of ${PROCESSES})`, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const temp = tempLedger('create');
      try {
        const outcomes = await Promise.all(Array.from({ length: PROCESSES }, () => openInChild(temp.file)));
        expect(outcomes, `round ${round}`).toEqual(Array.from({ length: PROCESSES }, () => 'ok'));
        const db = new Database(temp.file, { readonly: true });
        expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
        expect(db.prepare(`SELECT count(*) FROM ledger_meta WHERE key = 'format'`).pluck().get()).toBe(1);
        expect(db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(PROCESSES);
        db.close();
      } finally {
        temp.remove();
      }
    }
  }, 120_000);
});
