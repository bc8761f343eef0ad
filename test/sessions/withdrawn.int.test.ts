import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeSessionEvent } from '@session-ledger/events';
import { appendMessages, beginTurn, compressSession, findTip, listConversations, loadConversation, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

/**
 * A continuation withdrawn (the Hermes import writes it when Hermes deleted the compression child
 * and went on in the segment: outside test, session 31, helper-89 F2). The segment takes writes
 * again through every writer; the child is a conversation of its own, with its own ids, read by its
 * id; writes to it no longer reach up into the segment it left.
 */
describe.each(STORES)('a withdrawn continuation (%s)', (_name, open) => {
  const given = async () => {
    const writer = writerOn(open());
    const { context } = writer;
    await startSession(context, { id: 'seg' });
    await appendMessages(context, 'seg', [{ id: 'm1', role: 'user', content: 'before' }]);
    await compressSession(context, 'seg', { summary: 'S', childId: 'kid' });
    await appendMessages(context, 'kid', [{ id: 'k1', role: 'user', content: 'in the child' }]);
    const withdrawal = encodeSessionEvent({ type: 'session.continuation_withdrawn', data: { childId: 'kid', withdrawnAt: writer.now().toISOString() } });
    await writer.ledger.append('session-seg', [{ id: randomUUID(), ...withdrawal }]);
    return writer;
  };

  it('the segment takes messages and turns again and is its own tip; compressed again, it continues in the new child', async () => {
    const { context, store } = await given();
    expect(await findTip(store, 'seg')).toEqual({ tipId: 'seg', pending: false });
    await appendMessages(context, 'seg', [{ id: 'm2', role: 'user', content: 'after' }]);
    await beginTurn(context, 'seg', { turnId: 't2', owner: 'harness', ttlMs: 60_000 });
    const seg = await loadConversation(store, 'seg', { view: 'display' });
    expect([seg.rootId, seg.tipId, seg.messages.map((m) => m.id)]).toEqual(['seg', 'seg', ['m1', 'm2']]);

    await compressSession(context, 'seg', { summary: 'S2', childId: 'kid2' });
    expect(await findTip(store, 'seg')).toEqual({ tipId: 'kid2', pending: false });
    expect((await loadConversation(store, 'kid2', { view: 'display' })).segments.map((s) => s.sessionId)).toEqual(['seg', 'kid2']);
  });

  it('the child is a conversation of its own: read by its id, listed, and its ids are its own', async () => {
    const { context, store } = await given();
    const kid = await loadConversation(store, 'kid', { view: 'display' });
    expect([kid.rootId, kid.tipId, kid.messages.map((m) => m.id)]).toEqual(['kid', 'kid', ['k1']]);
    expect((await listConversations(store, { now: context.now() })).map((row) => [row.rootId, row.tipId]).sort()).toEqual([
      ['kid', 'kid'],
      ['seg', 'seg'],
    ]);
    // An id the segment holds, or a turn id it used, is no longer one of the child's conversation.
    await beginTurn(context, 'seg', { turnId: 't1', owner: 'harness', ttlMs: 60_000 });
    await appendMessages(context, 'kid', [{ id: 'm1', role: 'user', content: 'another m1' }]);
    await expect(beginTurn(context, 'kid', { turnId: 't1', owner: 'harness', ttlMs: 60_000 })).resolves.toMatchObject({ turnId: 't1' });
    expect((await loadConversation(store, 'kid', { view: 'display' })).messages.map((m) => m.content)).toEqual(['in the child', 'another m1']);
  });
});
