import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger, type EventStore } from '@session-ledger/core';
import { appendMessage, beginTurn, endTurn, startSession } from '@session-ledger/sessions';
import { deleteSession, deleteSessions, exportAndDelete, pruneSessions } from '@session-ledger/retention';
import { buildConversation, COVERED, scratchDir, STORES, wrapStore, writerOn } from './helpers.js';

const DAY = 86_400_000;

const present = async (store: EventStore, streams: string[]) => {
  for (const stream of streams) expect((await store.readStream(stream)).length).toBeGreaterThan(0);
};

describe.each(STORES)('the live-lease guard (%s)', (_name, open) => {
  it('refuses export --delete-after-verified and delete while a live turn holds the conversation, before writing anything', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    await beginTurn(context, 'root-2', { ttlMs: 60_000, owner: 'hermes', turnId: 'live-turn' });
    const out = join(scratchDir(), 'x.md');

    const refused = exportAndDelete(ledger, 'root', { format: 'markdown', out, now: now() });
    await expect(refused).rejects.toMatchObject({ type: 'session_active', details: { sessionId: 'root', turnId: 'live-turn', segment: 'root-2' } });
    await expect(refused).rejects.toThrow(/^Cannot delete active session root:/);
    await expect(deleteSession(ledger, 'root-2', { now: now() })).rejects.toThrow(/^Cannot delete active session root-2/);
    expect(existsSync(out)).toBe(false);
    await present(store, COVERED);
  });

  it('refuses when only a delegated child holds a live turn (the deletion would cascade to it)', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    await beginTurn(context, 'subsub', { ttlMs: 60_000, owner: 'worker', turnId: 'child-turn' });

    await expect(deleteSession(ledger, 'root', { now: now() })).rejects.toMatchObject({ type: 'session_active', details: { turnId: 'child-turn', segment: 'subsub' } });
    await expect(exportAndDelete(ledger, 'root', { format: 'html', out: join(scratchDir(), 'x.html'), now: now() })).rejects.toThrow(
      /Cannot delete active session root: .*delegated child subsub/,
    );
    await present(store, COVERED);
    // the tip alone does not cascade to the child
    expect((await deleteSession(ledger, 'root', { lineage: 'tip', now: now() })).deleted).toEqual(['session-root-2']);
  });

  it('an expired lease (a crashed owner) does not block: now >= leaseExpiresAt', async () => {
    const { context, store, ledger, now, advance } = writerOn(open());
    await buildConversation(context);
    await beginTurn(context, 'root-2', { ttlMs: 1000, owner: 'crashed' });
    advance(1000);

    const result = await exportAndDelete(ledger, 'root', { format: 'markdown', out: join(scratchDir(), 'x.md'), now: now() });

    expect(result.deleted).toHaveLength(4);
    await expect(store.readStream('session-root-2')).rejects.toMatchObject({ type: 'stream_deleted' });
  });

  it('an ended turn does not block', async () => {
    const { context, ledger, now } = writerOn(open());
    await buildConversation(context);
    const turn = await beginTurn(context, 'root-2', { ttlMs: 60_000 });
    await endTurn(context, 'root-2', turn.turnId);

    expect((await deleteSession(ledger, 'root', { now: now() })).deleted).toHaveLength(4);
  });

  it('a turn that starts after the check moves the revision: the deletion is refused as active, nothing deleted', async () => {
    const base = open();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    const out = join(scratchDir(), 'x.md');
    let started = false;
    const store = wrapStore(base, {
      readStream: async (stream, options) => {
        if (!started && existsSync(out)) {
          started = true;
          await beginTurn(context, 'root-2', { ttlMs: 60_000, turnId: 'late-turn' });
        }
        return base.readStream(stream, options);
      },
    });

    await expect(exportAndDelete(createLedger(store), 'root', { format: 'markdown', out, now: now() })).rejects.toMatchObject({
      type: 'session_active',
      details: { turnId: 'late-turn' },
    });
    await present(base, COVERED);
  });

  it('a turn that starts between the check and the tombstone: the conditional tombstone refuses, the deletion read again finds the live turn, nothing deleted', async () => {
    const base = open();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    let started = false;
    const store = wrapStore(base, {
      tombstoneStream: async (stream, options) => {
        if (!started) {
          started = true;
          await beginTurn(context, 'subsub', { ttlMs: 60_000 });
        }
        return base.tombstoneStream(stream, options);
      },
    });

    await expect(deleteSession(createLedger(store), 'root', { now: now() })).rejects.toMatchObject({ type: 'session_active', details: { segment: 'subsub' } });
    await present(base, COVERED);
  });

  it('bulk delete deletes the idle ones and reports skipped_active', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    await startSession(context, { id: 'busy' });
    await beginTurn(context, 'busy', { ttlMs: 60_000 });
    await startSession(context, { id: 'idle' });

    const result = await deleteSessions(ledger, ['root', 'busy', 'idle', 'root-2', 'nobody'], { now: now() });

    expect(result.deleted).toEqual(['root', 'idle', 'root-2']);
    expect(result.skipped_active).toEqual(['busy']);
    expect(result.failed).toEqual([{ id: 'nobody', error: expect.objectContaining({ type: 'not_found' }) }]);
    await present(store, ['session-busy', 'session-br']);
    await expect(store.readStream('session-idle')).rejects.toMatchObject({ type: 'stream_deleted' });
  });

  it('prune deletes conversations idle longer than the age, never a live one; --dry-run deletes nothing', async () => {
    const { context, store, ledger, advance, now } = writerOn(open());
    await buildConversation(context);
    await startSession(context, { id: 'old-live' });
    await beginTurn(context, 'old-live', { ttlMs: 60 * DAY });
    await startSession(context, { id: 'old-with-recent-child' });
    await startSession(context, { id: 'recent-child', parentId: 'old-with-recent-child', link: 'delegation' });
    advance(35 * DAY);
    await appendMessage(context, 'recent-child', { role: 'assistant', content: 'still working on it' });
    await startSession(context, { id: 'recent' });
    advance(5 * DAY);

    const dry = await pruneSessions(ledger, { olderThanMs: 30 * DAY, now: now(), dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, deleted: ['br', 'root'], skipped_active: ['old-live'], streams: [] });
    await present(store, [...COVERED, 'session-br', 'session-old-live']);

    const pruned = await pruneSessions(ledger, { olderThanMs: 30 * DAY, now: now() });
    expect([...pruned.deleted].sort()).toEqual(['br', 'root']);
    expect(pruned.skipped_active).toEqual(['old-live']);
    await present(store, ['session-old-live', 'session-old-with-recent-child', 'session-recent-child', 'session-recent']);
    await expect(store.readStream('session-subsub')).rejects.toMatchObject({ type: 'stream_deleted' });
  });

  it('memory streams are never touched by a session deletion', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    await ledger.append('memory-default', [{ id: '0f8c2b1e-9d4a-4c3b-8a7e-1b2c3d4e5f60', type: 'memory.added', data: { content: 'keep me' } }]);
    await appendMessage(context, 'root-2', { role: 'user', content: 'x' });

    await deleteSession(ledger, 'root', { now: now() });

    expect(await store.readStream('memory-default')).toHaveLength(1);
  });
});
