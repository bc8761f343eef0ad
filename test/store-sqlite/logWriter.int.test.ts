import { afterEach, describe, expect, it } from 'vitest';
import { newId, verifyLog, type EventData, type EventStore, type LogBreak } from '@session-ledger/core';
import { openSqliteStore, type CommitHook } from '@session-ledger/store-sqlite';
import { tempLedger } from './tempLedger.js';

const event = (label: string): EventData => ({ id: newId(), type: 'written', data: { label } });

/**
 * The store remembers the leaf hashes of the log's last, incomplete tile of 16 (src/log/writer.ts)
 * and trusts them while the log has the size it left. A rolled-back append must make it forget the
 * leaf it wrote: else another connection's leaf at that index brings the log back to that size and
 * the tile is completed from the wrong hash (a stored subtree that is not the root of its leaves).
 */
describe('SQLite store: the leaves an append remembers', () => {
  const temps: Array<ReturnType<typeof tempLedger>> = [];
  const stores: EventStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const temp of temps.splice(0)) temp.remove();
  });

  /** Two connections to one file; the first's commit hook refuses the events labelled 'refused'. */
  const open = () => {
    const temp = tempLedger('log-writer');
    temps.push(temp);
    const refusing: CommitHook = {
      init: () => undefined,
      appended: (_db, events) => {
        if (events.some((recorded) => (recorded.data as { label?: string }).label === 'refused')) throw new Error('refused by the hook');
      },
      erased: () => undefined,
    };
    const first = openSqliteStore(temp.file, { onCommit: refusing });
    const second = openSqliteStore(temp.file);
    stores.push(first, second);
    return { first, second };
  };

  /** The raw events carry no chain (those breaks are expected); the tree and the leaves must hold. */
  const treeBreaks = (breaks: LogBreak[]) => breaks.filter((found) => found.kind === 'root' || found.kind === 'leaf');

  const appendEach = async (store: EventStore, count: number) => {
    for (let n = 0; n < count; n += 1) await store.appendToStream('s', [event(`n${n}`)]);
  };

  it('a lone append rolled back after its leaf: the next tile is completed from the stored leaves', async () => {
    const { first, second } = open();
    await appendEach(first, 14);
    await expect(first.appendToStream('s', [event('refused')])).rejects.toThrow('refused by the hook');
    await second.appendToStream('s', [event('other connection')]); // leaf 14, the size the refused append had left
    await appendEach(first, 1); // leaf 15 completes the first tile
    const report = await verifyLog(first);
    expect(report.size).toBe(16);
    expect(treeBreaks(report.breaks)).toEqual([]);
  });

  it('an append rolled back to its savepoint in a group: the same', async () => {
    const { first, second } = open();
    await appendEach(first, 13);
    const results = await Promise.allSettled([first.appendToStream('s', [event('kept')]), first.appendToStream('s', [event('refused')])]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    await second.appendToStream('s', [event('other connection')]);
    await appendEach(first, 1);
    const report = await verifyLog(first);
    expect(report.size).toBe(16);
    expect(treeBreaks(report.breaks)).toEqual([]);
  });
});
