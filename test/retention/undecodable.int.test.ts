import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId, type EventStore } from '@session-ledger/core';
import { beginTurn, loadConversation } from '@session-ledger/sessions';
import { deleteSession, deleteSessions, exportSession } from '@session-ledger/retention';
import { buildConversation, COVERED, scratchDir, STORES, writerOn } from './helpers.js';

/** Events an older (or newer) version may have stored, written below the ledger as a store holds them. */
const storeForeign = async (store: EventStore, sessionId: string) => {
  const stream = `session-${sessionId}`;
  await store.appendToStream(stream, [{ id: newId(), type: 'legacy.note', data: { text: 'from an older version' }, metadata: {} }], { expectedRevision: 'any' });
  await store.appendToStream(stream, [{ id: newId(), type: 'message.appended', data: { messageId: 'bad', role: 'robot' }, metadata: {} }], { expectedRevision: 'any' });
  await store.appendToStream(stream, [{ id: newId(), type: 'message.appended', data: { messageId: 'later' }, metadata: { schemaVersion: 99 } }], { expectedRevision: 'any' });
};

const tombstoned = async (store: EventStore, streams: string[]) => {
  for (const stream of streams) await expect(store.readStream(stream)).rejects.toMatchObject({ type: 'stream_deleted' });
};

// EventStoreDB runs the same deletion code; the two embedded stores are enough to pin that deletion decodes no message.
describe.each(STORES.filter(([name]) => name !== 'eventstoredb'))('a conversation with events this version cannot decode (%s)', (_name, open) => {
  it('is unreadable, but deleteSession deletes every covered stream and audits it', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    await storeForeign(store, 'root-2');
    await storeForeign(store, 'subsub');
    await expect(loadConversation(store, 'root')).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(exportSession(store, 'root', { format: 'markdown', out: join(scratchDir(), 'x.md') })).rejects.toBeTruthy();

    const result = await deleteSession(ledger, 'root-2', { now: now() });

    expect([...result.deleted].sort()).toEqual([...COVERED].sort());
    await tombstoned(store, COVERED);
    expect((await store.readStream('session-br')).length).toBeGreaterThan(0);
    const audit = await store.readStream('ledger-audit');
    expect(audit.some((event) => event.type === 'retention.deleted' && (event.data as { deleted: string[] }).deleted.length === COVERED.length)).toBe(true);
  });

  it('the live-lease guard still holds (turns are decoded), and bulk delete goes through', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    await storeForeign(store, 'sub');
    await beginTurn(context, 'subsub', { ttlMs: 60_000, turnId: 'live' });

    await expect(deleteSession(ledger, 'root', { now: now() })).rejects.toMatchObject({ type: 'session_active', details: { turnId: 'live' } });
    const bulk = await deleteSessions(ledger, ['root'], { now: new Date(now().getTime() + 60_000) });
    expect(bulk).toMatchObject({ deleted: ['root'], skipped_active: [], failed: [] });
    await tombstoned(store, COVERED);
  });
});
