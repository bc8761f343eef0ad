import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createLedger, newId, type RecordedEvent } from '@session-ledger/core';
import { catalogReadModel, inlineReadModels, type ReadModel } from '@session-ledger/read-models';
import { appendMessage, listConversations, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { allRows, dump, inlineCatalog, scratchDir } from './support.js';

/** A read model counting events per stream, that throws on an event of type `boom` while `armed`. */
const counter = (armed: { on: boolean }, version = 1): ReadModel => ({
  name: 'counter',
  version,
  create: (db) => db.exec('CREATE TABLE IF NOT EXISTS counter (stream TEXT PRIMARY KEY, n INTEGER NOT NULL, v INTEGER NOT NULL)'),
  drop: (db) => db.exec('DROP TABLE IF EXISTS counter'),
  apply(db, events: readonly RecordedEvent[]) {
    for (const event of events) {
      if (armed.on && event.type === 'boom') throw new Error('the projection broke on boom');
      db.prepare('INSERT INTO counter (stream, n, v) VALUES (?, 1, ?) ON CONFLICT (stream) DO UPDATE SET n = n + 1').run(event.streamName, version);
    }
  },
  erase: (db, stream) => void db.prepare('DELETE FROM counter WHERE stream = ?').run(stream),
});

const open = (file: string, models: ReadModel[]) => {
  const { hook, readModels } = inlineReadModels(models);
  return { store: openSqliteStore(file, { onCommit: hook }), readModels };
};
const event = (type = 'note') => ({ id: newId(), type, data: {} });
const counts = (db: Database.Database) => db.prepare('SELECT stream, n, v FROM counter ORDER BY stream').all();

describe('the read model machinery (inline on SQLite)', () => {
  it('given a projection that throws, when an append carries its event, then the append is stored, the model is faulted, reads of it fail, and rebuild repairs it', async () => {
    const armed = { on: true };
    const { store, readModels } = open(join(scratchDir(), 'l.sqlite'), [counter(armed), inlineCatalog]);
    await store.appendToStream('a', [event()]);

    await expect(store.appendToStream('a', [event('boom')])).resolves.toMatchObject({ nextExpectedRevision: 1n });
    await store.appendToStream('a', [event()]);

    expect((await store.readStream('a')).map((e) => e.type)).toEqual(['note', 'boom', 'note']);
    expect(await readModels.status()).toEqual([
      expect.objectContaining({ name: 'catalog', status: 'ok', position: 3n }),
      expect.objectContaining({ name: 'counter', status: 'faulted', error: 'the projection broke on boom', position: 1n }),
    ]);
    await expect(readModels.ready('counter')).rejects.toMatchObject({ type: 'read_model_faulted', details: { name: 'counter' } });
    armed.on = false;
    await readModels.rebuild('counter');
    expect(counts(await readModels.ready('counter'))).toEqual([{ stream: 'a', n: 3, v: 1 }]);
    await store.close();
  });

  it('given a file built by another version of a model, when it is opened, then that model is rebuilt from $all', async () => {
    const file = join(scratchDir(), 'l.sqlite');
    const first = open(file, [counter({ on: false }, 1)]);
    await first.store.appendToStream('a', [event(), event()]);
    await first.store.close();

    const second = open(file, [counter({ on: false }, 2)]);

    expect(counts(await second.readModels.ready('counter'))).toEqual([{ stream: 'a', n: 2, v: 2 }]);
    expect(await second.readModels.status()).toEqual([expect.objectContaining({ version: 2, status: 'ok', position: 2n })]);
    await second.store.close();
  });

  it('given writes by a process without the read models, when a process with them appends, then the catalog takes in the missed events first (no gap)', async () => {
    const file = join(scratchDir(), 'l.sqlite');
    const kept = open(file, [inlineCatalog]);
    const plain = openSqliteStore(file);
    const withModels = { ledger: createLedger(kept.store), now: () => new Date('2026-03-01T10:00:00Z') };
    const without = { ledger: createLedger(plain), now: () => new Date('2026-03-01T11:00:00Z') };
    const a = (await startSession(withModels, { id: 'a-kept', title: 'kept' })).sessionId;
    const b = (await startSession(without, { id: 'b-missed', title: 'missed' })).sessionId;
    await appendMessage(without, a, { role: 'user', content: 'missed too' });

    await appendMessage(withModels, b, { role: 'user', content: 'kept' });

    // read straight from the tables, without the catch-up a read would do
    const db = new Database(file);
    const now = new Date('2026-03-01T12:00:00Z');
    expect(allRows(db, now).map(({ source: _s, model: _m, firstActivity: _f, ...row }) => row)).toEqual(await listConversations(kept.store, { now }));
    expect(allRows(db, now).map((row) => [row.title, row.messages])).toEqual([
      ['kept', 1],
      ['missed', 1],
    ]);
    db.close();
    await plain.close();
    await kept.store.close();
  });

  it('given a faulted model, when a stream is tombstoned and the model cannot erase it, then its tables are dropped (deleted means gone) and it stays faulted', async () => {
    const broken: ReadModel = { ...counter({ on: false }), erase: () => { throw new Error('cannot erase'); } };
    const { store, readModels } = open(join(scratchDir(), 'l.sqlite'), [broken]);
    await store.appendToStream('secret', [event()]);

    await store.tombstoneStream('secret');

    const db = new Database(store.name.slice('sqlite:'.length));
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'counter'").all()).toEqual([]);
    db.close();
    expect(await readModels.status()).toEqual([expect.objectContaining({ status: 'faulted', error: 'cannot erase' })]);
    await store.close();
  });

  it('given a read model whose bookkeeping is unreadable (its table dropped behind its back), when an append comes, then the append is stored all the same', async () => {
    const file = join(scratchDir(), 'l.sqlite');
    const { store } = open(file, [counter({ on: false })]);
    await store.appendToStream('a', [event()]);
    const other = new Database(file);
    other.exec('DROP TABLE read_models');
    other.close();

    await expect(store.appendToStream('a', [event()])).resolves.toMatchObject({ nextExpectedRevision: 1n });

    expect(await store.readStream('a')).toHaveLength(2);
    await store.close();
  });

  it('deferred: appends leave the catalog alone, the next read folds them in; a deletion still erases in its own transaction', async () => {
    const file = join(scratchDir(), 'l.sqlite');
    const { hook, readModels } = inlineReadModels([catalogReadModel], { appends: 'deferred' });
    const store = openSqliteStore(file, { onCommit: hook });
    const context = { ledger: createLedger(store), now: () => new Date('2026-03-01T10:00:00Z') };
    await startSession(context, { id: 'keep', title: 'kept' });
    await appendMessage(context, 'keep', { role: 'user', content: 'hi' });
    const peek = new Database(file, { readonly: true });
    const stored = () => peek.prepare('SELECT root_id, messages FROM catalog ORDER BY root_id').all();

    expect(stored()).toEqual([]);
    expect(allRows(await readModels.ready('catalog'), new Date()).map((row) => [row.rootId, row.messages])).toEqual([['keep', 1]]);
    await startSession(context, { id: 'gone', title: 'secret' });
    await readModels.ready('catalog');
    await appendMessage(context, 'keep', { role: 'user', content: 'again' });
    await store.tombstoneStream('session-gone');

    expect(stored()).toEqual([{ root_id: 'keep', messages: 1 }]);
    const now = new Date();
    expect(allRows(await readModels.ready('catalog'), now).map(({ source: _s, model: _m, firstActivity: _f, ...row }) => row)).toEqual(await listConversations(store, { now }));
    expect(stored()).toEqual([{ root_id: 'keep', messages: 2 }]);
    peek.close();
    await store.close();
  });

  it('a rebuild leaves the same tables as the model kept append by append', async () => {
    const { store, readModels } = open(join(scratchDir(), 'l.sqlite'), [inlineCatalog]);
    const context = { ledger: createLedger(store) };
    for (let n = 0; n < 5; n += 1) {
      const { sessionId } = await startSession(context, { title: `t${n}`, source: n % 2 ? 'cli' : 'hermes' });
      await appendMessage(context, sessionId, { role: 'user', content: `m${n}` });
    }
    const db = await readModels.ready('catalog');
    const kept = dump(db);

    await readModels.rebuild();

    expect(dump(db)).toEqual(kept);
    await store.close();
  });
});
