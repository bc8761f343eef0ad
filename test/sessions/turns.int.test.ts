import { describe, expect, it } from 'vitest';
import { isLedgerError, type EventStore } from '@session-ledger/core';
import { appendMessage, appendMessages, beginTurn, compressSession, endSession, endTurn, listConversations, loadConversation, renewLease, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

describe.each(STORES)('turns and leases (%s)', (_name, open) => {
  it('beginning a turn while another live turn holds the session is refused; an expired lease lets the next turn in', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    const first = await beginTurn(writer.context, 's', { turnId: 't1', owner: 'cli', ttlMs: 30_000 });
    expect(first.leaseExpiresAt).toBe('2026-03-01T10:00:30.000Z');

    writer.advance(29_999);
    await expect(beginTurn(writer.context, 's', { turnId: 't2', ttlMs: 30_000 })).rejects.toMatchObject({
      type: 'session_active',
      details: { sessionId: 's', turnId: 't1' },
    });

    writer.advance(1);
    const second = await beginTurn(writer.context, 's', { turnId: 't2', ttlMs: 30_000 });
    expect(second).toMatchObject({ turnId: 't2', leaseExpiresAt: '2026-03-01T10:01:00.000Z' });
    await expect(renewLease(writer.context, 's', 't1', { ttlMs: 30_000 })).rejects.toMatchObject({ type: 'session_active' });
  });

  it('refuses a turn owner with a control character (it is shown in every session_active refusal), writing nothing', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    await expect(beginTurn(writer.context, 's', { owner: 'o\nx', ttlMs: 30_000 })).rejects.toMatchObject({ type: 'invalid_input', details: { field: 'owner' } });
    await expect(beginTurn(writer.context, 's', { owner: 'harness one', ttlMs: 30_000 })).resolves.toMatchObject({ written: true });
  });

  it('renewing keeps the turn live past its first expiry; ending it frees the session at once', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    await beginTurn(writer.context, 's', { turnId: 't1', ttlMs: 10_000 });

    writer.advance(9_000);
    await renewLease(writer.context, 's', 't1', { ttlMs: 10_000 });
    writer.advance(5_000);
    await expect(beginTurn(writer.context, 's', { turnId: 't2', ttlMs: 10_000 })).rejects.toMatchObject({ type: 'session_active' });
    expect((await listConversations(writer.store, { now: new Date('2026-03-01T10:00:14.000Z') }))[0]!.live).toBe(true);

    await endTurn(writer.context, 's', 't1', { outcome: 'completed' });
    expect(await endTurn(writer.context, 's', 't1')).toMatchObject({ written: false });
    expect(await endTurn(writer.context, 's', 't1', { outcome: 'completed' })).toMatchObject({ written: false });
    // Another outcome would be acknowledged and never stored (outside test, session 21).
    await expect(endTurn(writer.context, 's', 't1', { outcome: 'failed' })).rejects.toMatchObject({ type: 'duplicate', message: 'turn t1 has ended already as completed, not failed' });
    expect((await listConversations(writer.store, { now: new Date('2026-03-01T10:00:14.000Z') }))[0]!.live).toBe(false);
    await expect(beginTurn(writer.context, 's', { turnId: 't2', ttlMs: 10_000 })).resolves.toMatchObject({ turnId: 't2' });
    await expect(endTurn(writer.context, 's', 'unknown')).rejects.toMatchObject({ type: 'session_active', details: { turnId: 't2' } });
    await endTurn(writer.context, 's', 't2');
    await expect(endTurn(writer.context, 's', 'unknown')).rejects.toMatchObject({ type: 'turn_not_found' });
  });

  // Outside test, session 26: `sessions end` from another harness was accepted under a live turn (the holder's next
  // write then answered session_ended: it stopped recording mid-turn), while `sessions delete` refused it.
  it('ending the session while another live turn holds it is refused; the holder may end it in its turn; an expired lease lets anyone', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    await beginTurn(writer.context, 's', { turnId: 't1', owner: 'harness-a', ttlMs: 30_000 });
    await expect(endSession(writer.context, 's')).rejects.toMatchObject({ type: 'session_active', details: { turnId: 't1' } });
    await expect(endSession(writer.context, 's', { turnId: 'other' })).rejects.toMatchObject({ type: 'session_active' });
    await appendMessage(writer.context, 's', { role: 'user', content: 'still recording' }, { turnId: 't1' });
    await expect(endSession(writer.context, 's', { turnId: 't1', reason: 'user_exit' })).resolves.toMatchObject({ written: true });

    await startSession(writer.context, { id: 'expired' });
    await beginTurn(writer.context, 'expired', { turnId: 't2', ttlMs: 30_000 });
    writer.advance(30_000);
    await expect(endSession(writer.context, 'expired')).resolves.toMatchObject({ written: true });
  });

  it('a turn live at compression still holds the tip, and ends there', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    await beginTurn(writer.context, 's', { turnId: 't1', ttlMs: 60_000 });
    const { sessionId: tip } = await compressSession(writer.context, 's', { summary: 'S' });

    await expect(beginTurn(writer.context, tip, { turnId: 't2', ttlMs: 1000 })).rejects.toMatchObject({ type: 'session_active', details: { turnId: 't1' } });
    await endTurn(writer.context, tip, 't1');

    const view = await loadConversation(writer.store, 's');
    expect(view.turns).toEqual([expect.objectContaining({ turnId: 't1', sessionId: 's', ended: expect.objectContaining({ outcome: 'completed' }) })]);
  });

  // Outside test, session 26: the child knew only its own turns, so a turn id ended before the compression began again.
  it('a turn id used before a compression, even two compressions up, is refused at the tip; the carried live turn is still its own retry', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    await beginTurn(writer.context, 's', { turnId: 'old', ttlMs: 60_000 });
    await endTurn(writer.context, 's', 'old');
    const { sessionId: middle } = await compressSession(writer.context, 's', { summary: 'S1' });
    await beginTurn(writer.context, middle, { turnId: 'live', ttlMs: 60_000 });
    const { sessionId: tip } = await compressSession(writer.context, middle, { summary: 'S2' });

    await expect(beginTurn(writer.context, tip, { turnId: 'live', ttlMs: 60_000 })).resolves.toMatchObject({ written: false, turnId: 'live' });
    await endTurn(writer.context, tip, 'live');
    for (const reused of ['old', 'live']) {
      await expect(beginTurn(writer.context, tip, { turnId: reused, ttlMs: 60_000 })).rejects.toMatchObject({ type: 'turn_not_found', details: { turnId: reused } });
    }
    await expect(beginTurn(writer.context, tip, { turnId: 'new', ttlMs: 60_000 })).resolves.toMatchObject({ written: true });

    const view = await loadConversation(writer.store, 's');
    expect(view.turns.map((turn) => turn.turnId)).toEqual(['old', 'live', 'new']);
  });

  it('messages in a turn land while it is the latest turn; after it ends, or once another turn took over, they are refused', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });
    await beginTurn(writer.context, 's', { turnId: 't1', ttlMs: 10_000 });
    await appendMessage(writer.context, 's', { role: 'user', content: 'in t1' }, { turnId: 't1' });

    // Expired, but nobody took over: t1 is still the latest turn and may go on.
    writer.advance(15_000);
    await appendMessage(writer.context, 's', { role: 'assistant', content: 'late, still t1' }, { turnId: 't1' });

    // A stalled harness coming back after another turn began is fenced off.
    await beginTurn(writer.context, 's', { turnId: 't2', ttlMs: 10_000 });
    await expect(appendMessage(writer.context, 's', { role: 'assistant', content: 'zombie' }, { turnId: 't1' })).rejects.toMatchObject({
      type: 'session_active',
      details: { sessionId: 's', turnId: 't2' },
    });
    await endTurn(writer.context, 's', 't2');
    await expect(appendMessage(writer.context, 's', { role: 'assistant', content: 'zombie' }, { turnId: 't1' })).rejects.toMatchObject({ type: 'turn_not_found', details: { turnId: 't1' } });
    await expect(appendMessage(writer.context, 's', { role: 'assistant', content: 'after the end' }, { turnId: 't2' })).rejects.toMatchObject({
      type: 'turn_not_found',
      message: expect.stringMatching(/has ended/),
    });
    await expect(appendMessages(writer.context, 's', [{ role: 'user', content: 'x', turnId: 'never-begun' }])).rejects.toMatchObject({ type: 'turn_not_found' });

    const view = await loadConversation(writer.store, 's');
    expect(view.messages.map((message) => [message.content, message.turnId])).toEqual([
      ['in t1', 't1'],
      ['late, still t1', 't1'],
    ]);
  });

  it('a writer that knows the revision appends in its turn without reading; a turn another writer ended is refused at the new revision', async () => {
    const reads = { count: 0 };
    const store = counting(open(), reads);
    const harness = writerOn(store);
    const other = writerOn(store);
    await startSession(harness.context, { id: 's' });
    let { revision } = await beginTurn(harness.context, 's', { turnId: 't1', ttlMs: 60_000 });

    reads.count = 0;
    for (const content of ['one', 'two', 'three']) {
      ({ revision } = await appendMessage(harness.context, 's', { role: 'user', content }, { turnId: 't1', expectedRevision: revision }));
    }
    expect(reads.count).toBe(0);

    const ended = await endTurn(other.context, 's', 't1');
    await expect(appendMessage(harness.context, 's', { role: 'user', content: 'four' }, { turnId: 't1', expectedRevision: ended.revision })).rejects.toMatchObject({
      type: 'turn_not_found',
    });
  });

  it('a turn another writer ended is refused to a writer whose own later append moved its known revision past the end', async () => {
    const store = open();
    const harness = writerOn(store);
    const other = writerOn(store);
    await startSession(harness.context, { id: 's' });
    const begun = await beginTurn(harness.context, 's', { turnId: 't1', ttlMs: 60_000 });
    const inTurn = await appendMessage(harness.context, 's', { role: 'user', content: 'in t1' }, { turnId: 't1', expectedRevision: begun.revision });

    await endTurn(other.context, 's', 't1');
    // The harness writes outside any turn at the current revision, so it learns a revision after the end.
    const { revision: known } = await appendMessage(harness.context, 's', { role: 'assistant', content: 'no turn' });

    await expect(appendMessage(harness.context, 's', { role: 'user', content: 'late, known revision' }, { turnId: 't1', expectedRevision: known })).rejects.toMatchObject({
      type: 'turn_not_found',
      details: { turnId: 't1' },
    });
    await expect(appendMessage(harness.context, 's', { role: 'user', content: 'late, no revision' }, { turnId: 't1' })).rejects.toMatchObject({
      type: 'turn_not_found',
      details: { turnId: 't1' },
    });
    // At the revision it knew before the end: refused too (the store or the fence, either way nothing lands).
    await expect(appendMessage(harness.context, 's', { role: 'user', content: 'late, stale revision' }, { turnId: 't1', expectedRevision: inTurn.revision })).rejects.toSatisfy(
      (error: unknown) => isLedgerError(error, 'turn_not_found') || isLedgerError(error, 'wrong_expected_version'),
    );

    const view = await loadConversation(harness.store, 's');
    expect(view.messages.map((message) => [message.content, message.turnId ?? null])).toEqual([
      ['in t1', 't1'],
      ['no turn', null],
    ]);
  });

  it('a bad TTL is invalid_input', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });

    await expect(beginTurn(writer.context, 's', { ttlMs: 0 })).rejects.toMatchObject({ type: 'invalid_input' });
  });
});

/** The store with its reads counted (the writer's own appends and nothing else should need none). */
const counting = (store: EventStore, reads: { count: number }): EventStore => ({
  ...store,
  readStream: (...args) => {
    reads.count += 1;
    return store.readStream(...args);
  },
});
