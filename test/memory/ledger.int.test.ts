import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, isLedgerError, newId, type EventStore } from '@session-ledger/core';
import { memoryStream, sessionStream } from '@session-ledger/events';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { createMemoryLedger } from '@session-ledger/memory';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'memory-ledger-'));
  dirs.push(dir);
  return join(dir, 'ledger.db');
};

const blueGreen = [
  { op: 'add', target: 'memory', content: 'Uses the blue notebook' },
  { op: 'replace', target: 'memory', old: 'blue notebook', content: 'Uses the green notebook' },
  { op: 'remove', target: 'memory', old: 'green notebook' },
] as const;

describe('memory ledger writes', () => {
  it('commits a batch as one append and returns receipts in operation order', async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    const result = await memory.apply([...blueGreen], { causation: { sessionId: 's-1', turnId: 't-1' } });
    expect(result.revision).toBe(2n);
    expect(result.receipts.map((r) => r.previousContent)).toEqual([null, 'Uses the blue notebook', 'Uses the green notebook']);
    const events = await store.readStream(memoryStream('default'));
    expect(events.map((e) => e.type)).toEqual(['memory.entry_added', 'memory.entry_replaced', 'memory.entry_removed']);
    expect(events.map((e) => (e.data as { entryId: string }).entryId)).toEqual(result.receipts.map((r) => r.entryId));
    expect(events.every((e) => JSON.stringify(e.metadata.causation) === '{"sessionId":"s-1","turnId":"t-1"}')).toBe(true);
    expect((await createLedger(store).verify()).broken).toBeNull();
    expect(await memory.list()).toEqual([]);
  });

  it('refuses causation ids with control characters (they would be stored in every event and shown by readers), writing nothing', async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    for (const causation of [{ sessionId: '\u0000\u001b[31mred' }, { turnId: 't\r\nid: 5' }]) {
      await expect(memory.apply([blueGreen[0]], { causation })).rejects.toMatchObject({ type: 'invalid_input' });
    }
    await expect(store.readStream(memoryStream('default'))).rejects.toMatchObject({ type: 'stream_not_found' });
  });

  it('keeps entry ids stable across later writes and separates profiles', async () => {
    const memory = createMemoryLedger(createMemoryStore());
    const added = await memory.add('user', 'Name is Ada', { profile: 'work' });
    await memory.add('user', 'Prefers short answers', { profile: 'work' });
    const replaced = await memory.replace('user', 'Ada', 'Name is Ada Lovelace', { profile: 'work' });
    expect(replaced.receipts[0]!.entryId).toBe(added.receipts[0]!.entryId);
    expect(await memory.list({ profile: 'work', target: 'user' })).toEqual([
      { id: added.receipts[0]!.entryId, target: 'user', content: 'Name is Ada Lovelace' },
      expect.objectContaining({ content: 'Prefers short answers' }),
    ]);
    expect(await memory.list()).toEqual([]);
  });

  it('emits nothing for a rejected batch, even when its first operations were valid', async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    await memory.add('memory', 'Prefers tea');
    await memory.add('memory', 'Prefers tea with milk');
    const before = await store.readAll();
    const rejected = memory.apply([
      { op: 'add', target: 'memory', content: 'Works remotely' },
      { op: 'remove', target: 'memory', old: 'Prefers t' },
    ]);
    await expect(rejected).rejects.toMatchObject({
      type: 'ambiguous',
      details: { candidates: ['Prefers tea', 'Prefers tea with milk'] },
    });
    expect(await store.readAll()).toEqual(before);
    await expect(memory.remove('memory', 'coffee')).rejects.toMatchObject({ type: 'not_found' });
    await expect(memory.add('memory', 'x'.repeat(2200))).rejects.toMatchObject({ type: 'over_budget' });
    await expect(memory.add('memory', 'Prefers tea')).rejects.toMatchObject({ type: 'duplicate' });
    expect(await store.readAll()).toEqual(before);
  });

  it('applies configured budgets', async () => {
    const memory = createMemoryLedger(createMemoryStore(), { budgets: { user: 10 } });
    expect(memory.budgets).toEqual({ memory: 2200, user: 10 });
    await expect(memory.add('user', 'eleven char')).rejects.toMatchObject({ details: { limit: 10, used: 11 } });
  });

  it('re-resolves against the new state when another writer commits between read and append', async () => {
    const base = createMemoryStore();
    const other = createMemoryLedger(base);
    await other.add('memory', 'Prefers tea');
    let interfered = false;
    // A store whose first read of the memory stream is followed by a competing commit.
    const racing: EventStore = {
      ...base,
      async readStream(stream, options) {
        const events = await base.readStream(stream, options);
        if (!interfered && stream === memoryStream('default')) {
          interfered = true;
          await other.add('memory', 'Prefers tea with milk');
        }
        return events;
      },
    };
    const memory = createMemoryLedger(racing);
    // Against the stale view "tea" is unique; against the committed state it is ambiguous.
    await expect(memory.remove('memory', 'tea')).rejects.toMatchObject({ type: 'ambiguous' });
    expect((await other.list()).map((e) => e.content)).toEqual(['Prefers tea', 'Prefers tea with milk']);
  });

  it('gives up after a bounded number of conflicts', async () => {
    const base = createMemoryStore();
    const other = createMemoryLedger(base);
    let reads = 0;
    const racing: EventStore = {
      ...base,
      async readStream(stream, options) {
        const events = await base.readStream(stream, options).catch((error) => {
          if (isLedgerError(error, 'stream_not_found')) return [];
          throw error;
        });
        if (stream === memoryStream('default') && options?.direction !== 'backwards' && options?.maxCount !== 1) {
          reads += 1;
          await other.add('memory', `competitor ${reads}`);
        }
        return events;
      },
    };
    const memory = createMemoryLedger(racing, { maxAttempts: 3 });
    await expect(memory.add('memory', 'mine')).rejects.toMatchObject({ type: 'wrong_expected_version' });
    expect(reads).toBe(3);
    expect((await other.list()).map((e) => e.content)).not.toContain('mine');
  });

  it('two writers on one SQLite file replacing different entries both commit with correct identities', async () => {
    const file = tempFile();
    const a = openSqliteStore(file);
    const b = openSqliteStore(file);
    try {
      const setup = await createMemoryLedger(a).apply([
        { op: 'add', target: 'memory', content: 'Uses vim' },
        { op: 'add', target: 'memory', content: 'Deploys on Fridays' },
      ]);
      const [vim, fridays] = setup.receipts.map((r) => r.entryId);
      // Both read the same revision before either appends (a barrier), so one of them must re-resolve.
      let arrived = 0;
      let release!: () => void;
      const barrier = new Promise<void>((resolve) => (release = resolve));
      const reads = { a: 0, b: 0 };
      const gated = (store: EventStore, key: 'a' | 'b'): EventStore => ({
        ...store,
        async readStream(stream, options) {
          const events = await store.readStream(stream, options);
          if (options?.direction !== 'backwards' && options?.maxCount !== 1 && ++reads[key] === 1) {
            if (++arrived === 2) release();
            await barrier;
          }
          return events;
        },
      });
      const [ra, rb] = await Promise.all([
        createMemoryLedger(gated(a, 'a')).replace('memory', 'vim', 'Uses neovim'),
        createMemoryLedger(gated(b, 'b')).replace('memory', 'Fridays', 'Deploys on Mondays'),
      ]);
      expect(reads.a + reads.b).toBe(3);
      expect(ra.receipts[0]).toMatchObject({ entryId: vim, previousContent: 'Uses vim', content: 'Uses neovim' });
      expect(rb.receipts[0]).toMatchObject({ entryId: fridays, previousContent: 'Deploys on Fridays' });
      expect(new Set([ra.revision, rb.revision])).toEqual(new Set([2n, 3n]));
      expect(await createMemoryLedger(b).list()).toEqual([
        { id: vim, target: 'memory', content: 'Uses neovim' },
        { id: fridays, target: 'memory', content: 'Deploys on Mondays' },
      ]);
      expect((await createLedger(a).verify()).broken).toBeNull();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps memory when the session that caused it is deleted', async () => {
    const store = createMemoryStore();
    const ledger = createLedger(store);
    await ledger.append(sessionStream('s-1'), [{ id: newId(), type: 'session.started', data: {} }]);
    const memory = createMemoryLedger(store);
    await memory.add('memory', 'Learned in s-1', { causation: { sessionId: 's-1' } });
    await store.tombstoneStream(sessionStream('s-1'));
    expect((await memory.list()).map((e) => e.content)).toEqual(['Learned in s-1']);
  });

  it('continues from its last read, and reads everything again after the stream was deleted', async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    const other = createMemoryLedger(store);
    const first = await memory.add('memory', 'one');
    await other.add('memory', 'two');
    expect((await memory.list()).map((e) => e.content)).toEqual(['one', 'two']);
    await store.deleteStream(memoryStream('default'));
    expect(await memory.list()).toEqual([]);
    const again = await other.add('memory', 'three');
    expect(again.receipts[0]!.entryId).not.toBe(first.receipts[0]!.entryId);
    expect((await memory.list()).map((e) => e.content)).toEqual(['three']);
    await memory.replace('memory', 'three', 'three!');
    expect((await other.list()).map((e) => e.content)).toEqual(['three!']);
  });

  it('rejects a bad profile name', async () => {
    await expect(createMemoryLedger(createMemoryStore()).list({ profile: '../x' })).rejects.toMatchObject({ type: 'invalid_input' });
  });

  // Outside test, session 34 (helper-94 F4): A saw one entry matching "notebook" and removed it by that selector;
  // B had replaced it and added another "notebook" entry meanwhile, and A's remove took B's new entry.
  it('a batch at the revision its selectors were chosen at is refused once another writer changed the profile, and nothing is removed', async () => {
    const store = createMemoryStore();
    const a = createMemoryLedger(store);
    const b = createMemoryLedger(store);
    await a.add('memory', 'Uses the blue notebook');
    const seen = await a.state();
    await b.replace('memory', 'blue notebook', 'Uses the blue pad');
    await b.add('memory', 'Bank PIN hint is in the red notebook');
    await expect(a.remove('memory', 'notebook', { expectedRevision: seen.revision! })).rejects.toMatchObject({ type: 'wrong_expected_version' });
    expect((await a.list()).map((entry) => entry.content)).toEqual(['Uses the blue pad', 'Bank PIN hint is in the red notebook']);
    // At the current revision it goes through.
    const now = await a.state();
    await a.remove('memory', 'red notebook', { expectedRevision: now.revision! });
    expect((await a.list()).map((entry) => entry.content)).toEqual(['Uses the blue pad']);
  });

  // helper-94 F4, the rest: an entry named by its id is that entry or none, whatever another writer did.
  it('a replace or remove by entry id takes that entry, and refuses (not_found) once it is gone, never another one', async () => {
    const store = createMemoryStore();
    const a = createMemoryLedger(store);
    const b = createMemoryLedger(store);
    await a.add('memory', 'Uses the blue notebook');
    const [blue] = await a.list();
    await b.add('memory', 'Bank PIN hint is in the red notebook');
    const replaced = await a.apply([{ op: 'replace', target: 'memory', entryId: blue!.id, content: 'Uses the blue pad' }]);
    expect(replaced.receipts[0]).toMatchObject({ entryId: blue!.id, previousContent: 'Uses the blue notebook', selector: null });
    await b.remove('memory', 'blue pad');
    await expect(a.apply([{ op: 'remove', target: 'memory', entryId: blue!.id }])).rejects.toMatchObject({ type: 'not_found' });
    // Nor is an id of the other target taken.
    const [red] = await a.list();
    await expect(a.apply([{ op: 'remove', target: 'user', entryId: red!.id }])).rejects.toMatchObject({ type: 'not_found' });
    expect((await a.list()).map((entry) => entry.content)).toEqual(['Bank PIN hint is in the red notebook']);
    // The event leaves the selector out: the caller gave none.
    const events = await store.readStream(memoryStream('default'));
    expect(events[2]!.data).toEqual({ entryId: blue!.id, target: 'memory', previousContent: 'Uses the blue notebook', content: 'Uses the blue pad' });
  });

  // helper-94 F4, the rest: a remove by selector whose answer was lost, retried, took a second matching entry.
  it('a batch retried under its batch id is answered with its first receipts and writes nothing, in another ledger too', async () => {
    const store = createMemoryStore();
    const a = createMemoryLedger(store);
    await a.apply([
      { op: 'add', target: 'memory', content: 'Uses the blue notebook' },
      { op: 'add', target: 'memory', content: 'Uses the red notebook' },
    ]);
    const first = await a.remove('memory', 'notebook', { batchId: 'turn-7/remove' }).catch((error) => error);
    expect(first).toMatchObject({ type: 'ambiguous' });
    const removed = await a.remove('memory', 'blue notebook', { batchId: 'turn-7/remove-blue' });
    expect(removed.written).toBe(true);
    // The retry (the answer was lost) selects by "notebook" again: without the key it would remove the red one.
    const again = await createMemoryLedger(store).apply([{ op: 'remove', target: 'memory', old: 'blue notebook' }], { batchId: 'turn-7/remove-blue' });
    expect(again).toMatchObject({ written: false, revision: removed.revision, position: removed.position });
    expect(again.receipts).toEqual(removed.receipts);
    expect((await a.list()).map((entry) => entry.content)).toEqual(['Uses the red notebook']);
    expect((await store.readStream(memoryStream('default'))).length).toBe(3);
    // Other operations under a key already committed are refused; the same key in another profile is another batch.
    await expect(a.remove('memory', 'red notebook', { batchId: 'turn-7/remove-blue' })).rejects.toMatchObject({ type: 'duplicate' });
    await a.add('memory', 'Uses the blue notebook', { profile: 'work' });
    expect((await a.remove('memory', 'blue notebook', { batchId: 'turn-7/remove-blue', profile: 'work' })).written).toBe(true);
    // A key must be an id: no control character, at most 200 characters.
    await expect(a.add('memory', 'x', { batchId: 'a\u001b[2J' })).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(a.add('memory', 'x', { batchId: 'k'.repeat(201) })).rejects.toMatchObject({ type: 'invalid_input' });
  });

  it('writers in two processes racing one batch id on one SQLite file commit it once, and both are answered with its receipts', async () => {
    const file = tempFile();
    const one = openSqliteStore(file);
    const two = openSqliteStore(file);
    try {
      await createMemoryLedger(one).add('memory', 'Uses the blue notebook');
      // Each writer moves "the notebook" to red: without the key, each after the first would remove the red
      // one the first added and add it again (four removes stored for one request).
      const batch = [
        { op: 'remove', target: 'memory', old: 'notebook' },
        { op: 'add', target: 'memory', content: 'Uses the red notebook' },
      ] as const;
      const writers = [one, two, one, two].map((store) => createMemoryLedger(store));
      const results = await Promise.all(writers.map((memory) => memory.apply([...batch], { batchId: 'turn-9' })));
      expect(results.filter((result) => result.written)).toHaveLength(1);
      expect(new Set(results.map((result) => JSON.stringify(result.receipts))).size).toBe(1);
      expect(results[0]!.receipts[0]).toMatchObject({ op: 'remove', previousContent: 'Uses the blue notebook' });
      const stored = await one.readStream(memoryStream('default'));
      expect(stored.map((event) => event.type)).toEqual(['memory.entry_added', 'memory.entry_removed', 'memory.entry_added']);
      expect((await createMemoryLedger(two).list()).map((entry) => entry.content)).toEqual(['Uses the red notebook']);
    } finally {
      one.close();
      two.close();
    }
  });
});
