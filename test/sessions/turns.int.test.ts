import { describe, expect, it } from 'vitest';
import { beginTurn, compressSession, endTurn, listConversations, loadConversation, renewLease, startSession } from '@session-ledger/sessions';
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
    expect((await listConversations(writer.store, { now: new Date('2026-03-01T10:00:14.000Z') }))[0]!.live).toBe(false);
    await expect(beginTurn(writer.context, 's', { turnId: 't2', ttlMs: 10_000 })).resolves.toMatchObject({ turnId: 't2' });
    await expect(endTurn(writer.context, 's', 'unknown')).rejects.toMatchObject({ type: 'session_active', details: { turnId: 't2' } });
    await endTurn(writer.context, 's', 't2');
    await expect(endTurn(writer.context, 's', 'unknown')).rejects.toMatchObject({ type: 'turn_not_found' });
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

  it('a bad TTL is invalid_input', async () => {
    const writer = writerOn(open());
    await startSession(writer.context, { id: 's' });

    await expect(beginTurn(writer.context, 's', { ttlMs: 0 })).rejects.toMatchObject({ type: 'invalid_input' });
  });
});
