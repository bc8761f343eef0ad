import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLedger, isLedgerError, type EventStore } from '@session-ledger/core';
import { appendMessage, beginTurn, endTurn, loadConversation, renewLease, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempLedger } from '../store-sqlite/tempLedger.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ONE_WRITE = fileURLToPath(new URL('./fixtures/oneWrite.mjs', import.meta.url));

type Job = { kind: 'message'; session: string; id: string; content: string } | { kind: 'delete'; session: string };

/** One write by another process on the same file, awaited to its end. */
const inOtherProcess = (file: string, job: Job): Promise<unknown> =>
  new Promise((resolve, reject) => {
    execFile(process.execPath, [ONE_WRITE, file, JSON.stringify(job)], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`oneWrite failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as unknown);
    });
  });

/** The store, counting the appends it refused as conflicts (a decision made on a stale state). */
const counting = (store: EventStore) => {
  const seen = { conflicts: 0 };
  const wrapped: EventStore = new Proxy(store, {
    get(target, key) {
      if (key === 'appendToStream') {
        return async (...args: Parameters<EventStore['appendToStream']>) => {
          try {
            return await target.appendToStream(...args);
          } catch (error) {
            if (isLedgerError(error, 'wrong_expected_version')) seen.conflicts += 1;
            throw error;
          }
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: wrapped, seen };
};

/**
 * The command handler skips its catch-up read while the store says the stream is unchanged since
 * its cached state (store.unchangedSince). Another process writing between two commands of this
 * one must be seen before this one decides: these fail if the skip trusts a stale state.
 */
describe('a cached session state and a writer in another process (SQLite)', () => {
  const temp = tempLedger('stale-cache');
  beforeAll(() => {
    execFileSync('npx', ['tsc', '-b', 'packages/sessions', 'packages/store-sqlite'], { cwd: ROOT, stdio: 'inherit' });
  }, 180_000);
  afterAll(() => temp.remove());

  it('another process appends between two appends of this one: this one decides on the new state, with no refused append', async () => {
    const { store, seen } = counting(openSqliteStore(temp.file));
    const context = { ledger: createLedger(store) };
    await startSession(context, { id: 'moved' });
    await appendMessage(context, 'moved', { id: 'mine-1', role: 'user', content: 'first' });
    await appendMessage(context, 'moved', { id: 'mine-2', role: 'user', content: 'second' }); // warm: decided on the cache
    expect(await inOtherProcess(temp.file, { kind: 'message', session: 'moved', id: 'theirs', content: 'from elsewhere' })).toEqual({ revision: '3' });

    const mine = await appendMessage(context, 'moved', { id: 'mine-3', role: 'user', content: 'third' });
    expect(mine).toMatchObject({ revision: 4n, written: true });
    await expect(appendMessage(context, 'moved', { id: 'theirs', role: 'user', content: 'other content' })).rejects.toMatchObject({ type: 'duplicate' });
    expect(seen.conflicts).toBe(0);
    expect((await loadConversation(store, 'moved')).messages.map((message) => message.id)).toEqual(['mine-1', 'mine-2', 'theirs', 'mine-3']);
    await store.close();
  });

  it('another process soft-deletes the session between two appends: the retry of a stored message is refused, not acknowledged', async () => {
    const store = openSqliteStore(temp.file);
    const context = { ledger: createLedger(store) };
    await startSession(context, { id: 'gone' });
    await appendMessage(context, 'gone', { id: 'm', role: 'user', content: 'kept?' });
    await appendMessage(context, 'gone', { id: 'n', role: 'user', content: 'warm' });
    expect(await inOtherProcess(temp.file, { kind: 'delete', session: 'gone' })).toEqual({ deleted: true });

    // On the stale cache this would be a retry of a stored message (a no-op answered as stored).
    await expect(appendMessage(context, 'gone', { id: 'm', role: 'user', content: 'kept?' })).rejects.toMatchObject({ type: 'not_found' });
    await store.close();
  });
});

/**
 * The handler takes the store's cheaper hint (SQLite reads data_version once a macrotask) only for a
 * caller who named no revision. A caller at the revision another connection has just acknowledged
 * was refused when this connection had looked at data_version earlier in the same macrotask
 * (outside test, session 19: 20 of 20 runs; over HTTP, two servers: 11 of 500). And a refusal or a
 * no-op decided on the entry of a caller at its revision, which the stream has left, is decided again
 * on the stream (the re-check tester: turn end and renew at an older revision answered turn_not_found).
 */
describe('callers naming a revision, with another connection writing the same file (SQLite, one process)', () => {
  const temp = tempLedger('stale-hint');
  afterAll(() => temp.remove());

  it('is served, even when this connection already looked at data_version in this macrotask', async () => {
    const [mine, theirs] = [openSqliteStore(temp.file), openSqliteStore(temp.file)];
    const [a, b] = [{ ledger: createLedger(mine) }, { ledger: createLedger(theirs) }];
    await startSession(a, { id: 's' });
    await startSession(a, { id: 'x' });
    for (let round = 0; round < 5; round += 1) {
      await appendMessage(a, 's', { role: 'user', content: `mine ${round}` });
      await new Promise((resolve) => setImmediate(resolve));
      const elsewhere = appendMessage(a, 'x', { role: 'user', content: `other ${round}` }); // a looks at data_version now
      const stored = await appendMessage(b, 's', { role: 'user', content: `theirs ${round}` });
      await expect(appendMessage(a, 's', { role: 'user', content: `after ${round}` }, { expectedRevision: stored.revision })).resolves.toMatchObject({
        written: true,
        revision: stored.revision + 1n,
      });
      await elsewhere;
    }
    await Promise.all([mine.close(), theirs.close()]);
  });

  it('a caller at an older revision that this connection\'s entry still holds is told of the conflict, not turn_not_found (outside test, session 19)', async () => {
    const [mine, theirs] = [openSqliteStore(temp.file), openSqliteStore(temp.file)];
    const [a, b] = [{ ledger: createLedger(mine) }, { ledger: createLedger(theirs) }];
    await startSession(a, { id: 'older' });
    const seen = await appendMessage(a, 'older', { role: 'user', content: 'cached here' }); // a's entry: revision 1
    const begun = await beginTurn(b, 'older', { turnId: 'tb', ttlMs: 60_000 });
    expect(begun.revision).toBe(seen.revision + 1n);
    for (const command of [() => endTurn(a, 'older', 'tb', { expectedRevision: seen.revision }), () => renewLease(a, 'older', 'tb', { ttlMs: 60_000, expectedRevision: seen.revision })]) {
      await expect(command()).rejects.toMatchObject({ type: 'wrong_expected_version', message: expect.stringContaining(`actual ${begun.revision}`) });
    }
    await expect(endTurn(a, 'older', 'tb', { expectedRevision: begun.revision })).resolves.toMatchObject({ written: true });
    await Promise.all([mine.close(), theirs.close()]);
  });
});
