import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, isLedgerError, newId, type AppendResult, type EventData, type EventStore } from '@session-ledger/core';
import { ID_BATCH, openSqliteStore } from '@session-ledger/store-sqlite';
import { tempLedger } from './tempLedger.js';
import { buildStore } from './writerProcess.js';

const CHILD = fileURLToPath(new URL('./fixtures/groupWriter.mjs', import.meta.url));
const events = (count: number, label: string): EventData[] => Array.from({ length: count }, (_, n) => ({ id: newId(), type: 'written', data: { label, n } }));

describe('SQLite store: group commit', () => {
  const temps: Array<ReturnType<typeof tempLedger>> = [];
  const stores: EventStore[] = [];
  const open = (groups: number[] = []) => {
    const temp = tempLedger('group');
    temps.push(temp);
    const store = openSqliteStore(temp.file, { onGroupCommit: (appends) => groups.push(appends) });
    stores.push(store);
    return { store, file: temp.file };
  };

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const temp of temps.splice(0)) temp.remove();
  });

  it('concurrent appends to many streams share transactions; acknowledged == stored, each once', async () => {
    const groups: number[] = [];
    const { store } = open(groups);
    const batches = Array.from({ length: 200 }, (_, n) => ({ stream: `s-${n % 40}`, events: events(1 + (n % 3), `b${n}`) }));
    const results = await Promise.all(batches.map((batch) => store.appendToStream(batch.stream, batch.events)));
    expect(results.every((result) => result.written)).toBe(true);
    // Called in one turn, they were committed together, not one transaction each.
    expect(groups.reduce((sum, size) => sum + size, 0)).toBe(200);
    expect(groups.length).toBeLessThan(200);
    expect(Math.max(...groups)).toBeGreaterThan(1);

    const all = await store.readAll();
    expect(all.map((event) => event.id).sort()).toEqual(batches.flatMap((batch) => batch.events.map((event) => event.id)).sort());
    for (let s = 0; s < 40; s += 1) {
      const stored = await store.readStream(`s-${s}`);
      expect(stored.map((event) => event.revision)).toEqual(stored.map((_, index) => BigInt(index)));
      // Arrival order: each stream's batches in the order they were called.
      const called = batches.filter((batch) => batch.stream === `s-${s}`).flatMap((batch) => batch.events.map((event) => event.id));
      expect(stored.map((event) => event.id)).toEqual(called);
    }
    results.forEach((result, index) => {
      const batch = batches[index]!;
      const last = all.find((event) => event.id === batch.events[batch.events.length - 1]!.id)!;
      expect(result.nextExpectedRevision).toBe(last.revision);
      expect(result.position).toBe(last.position);
    });
  });

  it('concurrent appends to one stream: contiguous revisions, every exact-revision append decided in arrival order', async () => {
    const groups: number[] = [];
    const { store } = open(groups);
    await store.appendToStream('one', events(1, 'head'), { expectedRevision: 'no_stream' });
    // Revision n+1 expects revision n: correct only if each is decided after the previous one in the same transaction.
    const batches = Array.from({ length: 100 }, (_, n) => events(1, `e${n}`));
    const results = await Promise.all(batches.map((batch, n) => store.appendToStream('one', batch, { expectedRevision: BigInt(n) })));
    expect(results.map((result) => result.nextExpectedRevision)).toEqual(batches.map((_, n) => BigInt(n + 1)));
    expect(groups.slice(1)).toEqual([100]);
    const stored = await store.readStream('one');
    expect(stored.map((event) => event.revision)).toEqual(stored.map((_, index) => BigInt(index)));
    expect(stored.slice(1).map((event) => event.id)).toEqual(batches.map((batch) => batch[0]!.id));
  });

  it('a refused append inside a shared commit fails only its caller; the others in the group are stored', async () => {
    const groups: number[] = [];
    const { store } = open(groups);
    await store.appendToStream('taken', events(1, 'head'));
    await store.appendToStream('gone', events(1, 'head'));
    await store.tombstoneStream('gone');
    const before = groups.length;
    const good = [events(2, 'a'), events(1, 'b'), events(3, 'c')];
    const settled = await Promise.allSettled([
      store.appendToStream('fresh-a', good[0]!),
      store.appendToStream('taken', events(2, 'wrong'), { expectedRevision: 'no_stream' }),
      store.appendToStream('fresh-b', good[1]!),
      store.appendToStream('gone', events(1, 'late')),
      store.appendToStream('fresh-c', good[2]!, { expectedRevision: 'no_stream' }),
    ]);
    expect(groups.slice(before)).toEqual([5]);
    const kinds = settled.map((outcome) => (outcome.status === 'fulfilled' ? 'ok' : isLedgerError(outcome.reason) ? outcome.reason.type : String(outcome.reason)));
    expect(kinds).toEqual(['ok', 'wrong_expected_version', 'ok', 'stream_deleted', 'ok']);
    expect((await store.readStream('fresh-a')).map((event) => event.id)).toEqual(good[0]!.map((event) => event.id));
    expect((await store.readStream('fresh-b')).map((event) => event.id)).toEqual(good[1]!.map((event) => event.id));
    expect((await store.readStream('fresh-c')).map((event) => event.id)).toEqual(good[2]!.map((event) => event.id));
    expect(await store.readStream('taken')).toHaveLength(1); // the refused append's rows were rolled back
    const positions = (await store.readAll()).map((event) => event.position);
    expect(new Set(positions).size).toBe(positions.length);
  });

  it('an idempotent retry in the same group writes nothing and reports the first write', async () => {
    const groups: number[] = [];
    const { store } = open(groups);
    const batch = events(2, 'twice');
    const [first, second] = await Promise.all([store.appendToStream('retry', batch), store.appendToStream('retry', batch)]);
    expect(groups).toEqual([2]); // the second was decided after the first, inside the same transaction
    expect(first!.written).toBe(true);
    expect(second).toEqual({ ...first!, written: false } satisfies AppendResult);
    expect(await store.readStream('retry')).toHaveLength(2);
  });

  it('stores the events as they were when the append was called, though it commits later', async () => {
    const groups: number[] = [];
    const { store } = open(groups);
    const event = { id: newId(), type: 'written', data: { text: 'as called' }, metadata: { by: 'caller' } };
    const pending = store.appendToStream('reused', [event]);
    event.data.text = 'changed before the commit'; // a caller reusing its objects
    event.metadata.by = 'someone else';
    await pending;
    expect(groups).toEqual([1]);
    const [stored] = await store.readStream('reused');
    expect(stored!.data).toEqual({ text: 'as called' });
    expect(stored!.metadata).toEqual({ by: 'caller' });
  });

  it('appends called before a delete or close are committed first', async () => {
    const groups: number[] = [];
    const { store, file } = open(groups);
    const pending = store.appendToStream('doomed', events(2, 'x'));
    await store.deleteStream('doomed', { expectedRevision: 1n }); // sees both events
    await pending;
    const last = store.appendToStream('kept', events(1, 'y'));
    await store.close();
    expect((await last).written).toBe(true);
    expect(groups).toEqual([1, 1]); // each committed by the delete and the close, not left queued
    const reopened = openSqliteStore(file);
    stores.push(reopened);
    expect(await reopened.readStream('kept')).toHaveLength(1);
    expect((await reopened.streamState!('doomed'))?.firstLive).toBe(2n);
  });
});

interface Ack {
  stream: string;
  ids: string[];
  last: string;
}

/** Runs the child writer until it has acknowledged `acks` appends and shared a commit, then SIGKILLs it. */
const killMidRun = (file: string, durability: 'normal' | 'full', acks: number) =>
  new Promise<{ acked: Ack[]; shared: number }>((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, file, durability, '16'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const acked: Ack[] = [];
    let shared = 0;
    let killed = false;
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as Ack & { group?: number; ready?: boolean };
      if (message.group !== undefined) shared += message.group > 1 ? 1 : 0;
      else if (!message.ready) acked.push(message);
      if (!killed && acked.length >= acks && shared > 0) {
        killed = true;
        child.kill('SIGKILL');
      }
      if (!killed && acked.length >= 20 * acks) {
        killed = true; // never shared a commit: stop it anyway, and fail
        child.kill('SIGKILL');
      }
    });
    child.once('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve({ acked, shared }) : reject(new Error(`writer exited on its own (${signal})`))));
  });

describe('SQLite store: kill -9 during group commits', () => {
  beforeAll(() => buildStore(), 120_000);

  for (const durability of ['normal', 'full'] as const) {
    it(`loses nothing acknowledged (durability ${durability}), and the chain verifies`, async () => {
      const temp = tempLedger('group-kill');
      try {
        const { acked, shared } = await killMidRun(temp.file, durability, 400);
        expect(shared).toBeGreaterThan(0);
        const store = openSqliteStore(temp.file);
        try {
          for (const ack of acked) {
            const last = BigInt(ack.last);
            const stored = await store.readStream(ack.stream, { fromRevision: last - BigInt(ack.ids.length) + 1n, maxCount: ack.ids.length });
            expect(stored.map((event) => event.id)).toEqual(ack.ids);
          }
          const report = await createLedger(store).verify();
          expect(report.broken).toBeNull();
          expect(report.events).toBeGreaterThanOrEqual(acked.reduce((sum, ack) => sum + ack.ids.length, 0));
          // Each acknowledged append retried under 'any' after the crash writes nothing: its ids are
          // found whether the killed process had indexed them yet or not (schema 6, ID_BATCH).
          expect(acked.reduce((sum, ack) => sum + ack.ids.length, 0)).toBeGreaterThan(ID_BATCH);
          for (const ack of acked) {
            const retry = await store.appendToStream(ack.stream, ack.ids.map((id) => ({ id, type: 'written', data: {} })), { expectedRevision: 'any' });
            expect(retry).toMatchObject({ written: false, nextExpectedRevision: BigInt(ack.last) });
          }
        } finally {
          await store.close();
        }
      } finally {
        temp.remove();
      }
    }, 60_000);
  }
});
