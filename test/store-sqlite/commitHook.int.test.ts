import { afterEach, describe, expect, it } from 'vitest';
import { newId, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { openSqliteStore, type CommitHook } from '@session-ledger/store-sqlite';
import { tempLedger } from './tempLedger.js';

const temps: Array<ReturnType<typeof tempLedger>> = [];
const stores: EventStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const temp of temps.splice(0)) temp.remove();
});

const open = (hook: CommitHook) => {
  const temp = tempLedger('hook');
  temps.push(temp);
  const store = openSqliteStore(temp.file, { onCommit: hook });
  stores.push(store);
  return store;
};

const ids = new Map<string, string>();
/** An event whose data names it; its id a UUID, the same for the same name. */
const event = (name: string) => {
  if (!ids.has(name)) ids.set(name, newId());
  return { id: ids.get(name)!, type: 'noted', data: { name } };
};

describe('the commit hook of the SQLite store (read models kept in its transactions)', () => {
  it('Given a hook without `appended` (no read model kept inline), When appending and tombstoning, Then the appends are stored and the hook still hears open and erasure', async () => {
    const heard: string[] = [];
    const store = open({ init: () => void heard.push('init'), erased: (_db, stream) => void heard.push(`erased ${stream}`) });
    await store.appendToStream('s', [event('a'), event('b')]);
    await Promise.all([store.appendToStream('s', [event('c')]), store.appendToStream('t', [event('d')])]);
    expect((await store.readStream('s')).map((stored) => stored.data)).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    await store.tombstoneStream('t');
    expect(heard).toEqual(['init', 'erased t']);
  });

  it('Given a hook with `appended`, When appending, Then it is given each append\'s recorded events in its transaction', async () => {
    const given: RecordedEvent[][] = [];
    const store = open({ init: () => undefined, appended: (db, events) => void given.push(db.inTransaction ? events : []), erased: () => undefined });
    await store.appendToStream('s', [event('a'), event('b')]);
    expect(given.map((events) => events.map((recorded) => [recorded.id, recorded.revision, recorded.data]))).toEqual([
      [
        [ids.get('a'), 0n, { name: 'a' }],
        [ids.get('b'), 1n, { name: 'b' }],
      ],
    ]);
  });
});
