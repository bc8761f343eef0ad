import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@session-ledger/core';
import { segmentDecider, type SegmentCommand } from '@session-ledger/sessions';

/** Given: a segment's stored events (only id, type and data matter to the decider). */
const given = (...events: Array<{ id?: string; type: string; data: Record<string, unknown> }>) => {
  let state = segmentDecider.initialState();
  events.forEach((event, revision) => {
    const recorded: RecordedEvent = { streamName: 'session-s', id: event.id ?? `e${revision}`, type: event.type, revision: BigInt(revision), position: BigInt(revision), data: event.data as never, metadata: {}, created: '' };
    state = segmentDecider.evolve(state, recorded);
  });
  return state;
};
const when = (state: ReturnType<typeof given>, command: SegmentCommand) => segmentDecider.decide(command, state);

const NOW = new Date('2026-01-01T00:10:00.000Z');
const started = { type: 'session.started', data: { sessionId: 's', rootId: 's', parentId: null, link: null, startedAt: '2026-01-01T00:00:00.000Z', title: 'T' } };
const turn = (turnId: string, owner: string, leaseExpiresAt: string) => ({ type: 'turn.started', data: { turnId, owner, leaseExpiresAt, startedAt: '2026-01-01T00:00:00.000Z' } });
const begin = (turnId: string, owner = 'h1'): SegmentCommand => ({ kind: 'begin_turn', sessionId: 's', eventId: `ev-${turnId}`, turnId, owner, leaseExpiresAt: '2026-01-01T00:11:00.000Z', now: NOW });
const message = (messageId: string, eventId: string): SegmentCommand => ({
  kind: 'append_messages',
  sessionId: 's',
  messages: [{ messageId, eventId, data: { messageId, role: 'user', content: 'hi', timestamp: '2026-01-01T00:10:00.000Z' } }],
  turnIds: [],
  now: NOW,
});

describe('segment decider (Given events / When command / Then events or error)', () => {
  it('given no events, when a message is appended, then the session is not found', () => {
    expect(() => when(given(), message('m1', 'e'))).toThrow(expect.objectContaining({ type: 'not_found' }));
  });

  it('given a live turn of another owner, when a turn begins, then session_active names the holder', () => {
    expect(() => when(given(started, turn('t1', 'h1', '2026-01-01T00:20:00.000Z')), begin('t2', 'h2'))).toThrow(
      expect.objectContaining({ type: 'session_active', details: expect.objectContaining({ turnId: 't1' }) }),
    );
  });

  it('given an expired lease nobody took over, when another turn begins, then it is started', () => {
    const { events, reply } = when(given(started, turn('t1', 'h1', '2026-01-01T00:05:00.000Z')), begin('t2', 'h2'));
    expect(events.map((event) => event.type)).toEqual(['turn.started']);
    expect(reply.turnId).toBe('t2');
  });

  it('given the same turn already begun by the same owner, when it begins again (a retry), then nothing is appended', () => {
    expect(when(given(started, turn('t1', 'h1', '2026-01-01T00:20:00.000Z')), begin('t1', 'h1')).events).toEqual([]);
  });

  it('given a turn, when another owner begins it under the same id, then it is a duplicate, never a shared grant', () => {
    expect(() => when(given(started, turn('t1', 'h1', '2026-01-01T00:20:00.000Z')), begin('t1', 'h2'))).toThrow(expect.objectContaining({ type: 'duplicate' }));
  });

  it('given a message stored with one content, when the same id comes with the same content, then no-op; with other content, then duplicate', () => {
    const state = given(started, { id: 'ev-a', type: 'message.appended', data: { messageId: 'm1' } });
    expect(when(state, message('m1', 'ev-a')).events).toEqual([]);
    expect(() => when(state, message('m1', 'ev-b'))).toThrow(expect.objectContaining({ type: 'duplicate' }));
  });

  it('given an ended turn, when a message is appended in it, then turn_not_found (the fence)', () => {
    const state = given(started, turn('t1', 'h1', '2026-01-01T00:20:00.000Z'), { type: 'turn.ended', data: { turnId: 't1', outcome: 'completed', endedAt: '2026-01-01T00:01:00.000Z' } });
    expect(() => when(state, { ...(message('m1', 'e') as Extract<SegmentCommand, { kind: 'append_messages' }>), turnIds: ['t1'] })).toThrow(
      expect.objectContaining({ type: 'turn_not_found' }),
    );
  });

  it('given a compressed segment, when anything is written, then session_sealed names the child; the same compression again is a no-op', () => {
    const continued = { childId: 'c', summary: 'S', summaryId: 'x', continuedAt: '2026-01-01T00:01:00.000Z' };
    const state = given(started, { type: 'session.continued', data: continued });
    expect(() => when(state, message('m1', 'e'))).toThrow(expect.objectContaining({ type: 'session_sealed', details: expect.objectContaining({ tipId: 'c' }) }));
    expect(when(state, { kind: 'continue', sessionId: 's', eventId: 'z', continued: { ...continued, childId: 'other' }, childGiven: false, child: 'free' }).events).toEqual([]);
    expect(() => when(state, { kind: 'continue', sessionId: 's', eventId: 'z', continued: { ...continued, childId: 'other', summary: 'T' }, childGiven: false, child: 'free' })).toThrow(
      expect.objectContaining({ type: 'session_sealed' }),
    );
  });

  it('given a started session, when it starts again with another title, then duplicate; with the same settings at another time, then no-op', () => {
    const state = given(started);
    const again = (title: string): SegmentCommand => ({ kind: 'start', sessionId: 's', eventId: 'x', data: { ...started.data, title, startedAt: '2026-01-02T00:00:00.000Z' } });
    expect(() => when(state, again('other'))).toThrow(expect.objectContaining({ type: 'duplicate' }));
    expect(when(state, again('T')).events).toEqual([]);
  });

  it('given an event type this version does not know, when a message is appended, then it is decided as usual', () => {
    expect(when(given(started, { type: 'foreign.thing', data: {} }), message('m1', 'e')).events).toHaveLength(1);
  });

  it('replies: a begun turn names itself and its lease; appended messages name their ids; errors say why in words', () => {
    const begun = when(given(started), begin('t2'));
    expect(begun.reply).toEqual({ turnId: 't2', leaseExpiresAt: '2026-01-01T00:11:00.000Z' });
    expect(begun.events[0]).toMatchObject({ id: 'ev-t2', type: 'turn.started', data: { turnId: 't2', owner: 'h1', startedAt: NOW.toISOString() } });
    expect(when(given(started), message('m1', 'e')).reply).toEqual({ messageIds: ['m1'] });
    const live = given(started, turn('t1', 'h1', '2026-01-01T00:20:00.000Z'));
    expect(() => when(live, begin('t1', 'h2'))).toThrow('turn t1 is held by h1');
    const stored = given(started, { id: 'ev-a', type: 'message.appended', data: { messageId: 'm1' } });
    expect(() => when(stored, message('m1', 'ev-b'))).toThrow('message m1 is already stored in session s with other content');
    expect(() => when(given(started), { kind: 'start', sessionId: 's', eventId: 'x', data: { ...started.data, title: 'other' } })).toThrow(
      'session s already exists with other settings',
    );
  });

  it('given a turn begun and ended, when the same id begins again, then turn_not_found: a turn id is never reused', () => {
    const state = given(started, turn('t1', 'h1', '2026-01-01T00:20:00.000Z'), { type: 'turn.ended', data: { turnId: 't1', outcome: 'completed', endedAt: '2026-01-01T00:01:00.000Z' } }, turn('t2', 'h1', '2026-01-01T00:20:00.000Z'));
    expect(() => when(state, begin('t1'))).toThrow(expect.objectContaining({ type: 'turn_not_found' }));
  });

  // Outside test, session 26: an id that ended before a compression began again in the child, which knew only its own turns.
  it('given a compression child, when a turn id new to it begins, then it asks for the lineage; given the lineage, an ancestor\'s turn id is turn_not_found', () => {
    const child = given({ type: 'session.started', data: { ...started.data, rootId: 'r', parentId: 'r', link: 'compression', summary: 'x', summaryId: 'y' } });
    const ask = begin('t1') as Extract<SegmentCommand, { kind: 'begin_turn' }>;

    expect(when(child, ask)).toEqual({ events: [], reply: { lineageNeeded: true } });
    expect(() => when(child, { ...ask, lineageTurnIds: new Set(['t0', 't1']) })).toThrow(
      expect.objectContaining({ type: 'turn_not_found', message: expect.stringContaining('before its compression') }),
    );
    expect(when(child, { ...ask, lineageTurnIds: new Set(['t0']) }).events.map((event) => event.type)).toEqual(['turn.started']);
    // A root never asks: it has no ancestors.
    expect(when(given(started), ask).events.map((event) => event.type)).toEqual(['turn.started']);
  });

  it('given an ended session, when it is reopened, then session.reopened; given it open, a no-op; a later end and reopen get ids of their own', () => {
    const end = (reason: string): SegmentCommand => ({ kind: 'end', sessionId: 's', eventId: 'end-s', data: { reason, endedAt: '2026-01-01T00:02:00.000Z' }, now: NOW });
    const reopen: SegmentCommand = { kind: 'reopen', sessionId: 's', eventId: 'reopen-s', reopenedAt: '2026-01-01T00:03:00.000Z' };
    const ended = given(started, { id: 'end-s', type: 'session.ended', data: { endedAt: '2026-01-01T00:02:00.000Z' } });

    const first = when(ended, reopen);
    expect(first.events).toEqual([expect.objectContaining({ id: 'reopen-s', type: 'session.reopened' })]);
    const open = given(started, { id: 'end-s', type: 'session.ended', data: { endedAt: '2026-01-01T00:02:00.000Z' } }, { id: 'reopen-s', type: 'session.reopened', data: {} });
    expect(when(open, reopen).events).toEqual([]);
    expect(when(given(started), reopen).events).toEqual([]);
    const second = when(open, end('again')).events[0]!;
    expect(second.id).not.toBe('end-s');
    const endedTwice = given(started, { id: 'end-s', type: 'session.ended', data: {} }, { id: 'reopen-s', type: 'session.reopened', data: {} }, { id: second.id, type: 'session.ended', data: {} });
    expect(when(endedTwice, reopen).events[0]!.id).not.toBe('reopen-s');
  });

  it('given an ended session, when it ends again, then no-op; when a turn begins, then session_ended', () => {
    const state = given(started, { type: 'session.ended', data: { endedAt: '2026-01-01T00:02:00.000Z' } });
    expect(when(state, { kind: 'end', sessionId: 's', eventId: 'x', data: { endedAt: '2026-01-01T00:03:00.000Z' }, now: NOW }).events).toEqual([]);
    expect(() => when(state, begin('t9'))).toThrow(expect.objectContaining({ type: 'session_ended' }));
  });

  it('given a compressed segment, when the same child is named again (childGiven), then no-op; with another summary, a duplicate; another child, then sealed', () => {
    const continued = { childId: 'c', summary: 'S', summaryId: 'x', continuedAt: '2026-01-01T00:01:00.000Z' };
    const state = given(started, { type: 'session.continued', data: continued });
    expect(when(state, { kind: 'continue', sessionId: 's', eventId: 'z', continued: { ...continued, continuedAt: '2026-01-01T00:02:00.000Z' }, childGiven: true, child: 'free' }).reply).toEqual({ continued });
    // The summary T would be acknowledged and never stored (outside test, session 21).
    expect(() => when(state, { kind: 'continue', sessionId: 's', eventId: 'z', continued: { ...continued, summary: 'T' }, childGiven: true, child: 'free' })).toThrow(
      expect.objectContaining({ type: 'duplicate', message: 'session c is already the compression of s, with another summary' }),
    );
    expect(() => when(state, { kind: 'continue', sessionId: 's', eventId: 'z', continued: { ...continued, childId: 'd' }, childGiven: true, child: 'free' })).toThrow(
      expect.objectContaining({ type: 'session_sealed' }),
    );
  });

  it('given a compression child, when a caller-given id it does not hold arrives, then it asks for the lineage; given the lineage, a retry is a no-op and other content a conflict naming the ancestor', () => {
    const child = { type: 'session.started', data: { ...started.data, sessionId: 's', rootId: 'r', parentId: 'r', link: 'compression', summary: 'x', summaryId: 'y' } };
    const state = given(child);
    const retried = { ...(message('m1', 'e-in-s') as Extract<SegmentCommand, { kind: 'append_messages' }>) };
    retried.messages = retried.messages.map((prepared) => ({ ...prepared, digest: 'text' }));

    expect(when(state, retried)).toEqual({ events: [], reply: { messageIds: ['m1'], lineageNeeded: true } });
    expect(when(state, { ...retried, lineage: new Map([['m1', { sessionId: 'r', same: true }]]) })).toEqual({ events: [], reply: { messageIds: ['m1'] } });
    expect(() => when(state, { ...retried, lineage: new Map([['m1', { sessionId: 'r', same: false }]]) })).toThrow(
      expect.objectContaining({ type: 'duplicate', message: expect.stringContaining('in session r with other content') }),
    );
    // Not held up the lineage: written; a new id (no digest) or a root segment never asks.
    expect(when(state, { ...retried, lineage: new Map() }).events).toHaveLength(1);
    expect(when(state, message('m1', 'e')).events).toHaveLength(1);
    expect(when(given(started), retried).events).toHaveLength(1);
  });

  it('given a continuation the source withdrew, when a message is appended, a turn begins or the session is compressed again, then each is written; before it, each is session_sealed', () => {
    const continued = { type: 'session.continued', data: { childId: 'c', summary: 'S', summaryId: 'sum', continuedAt: '2026-01-01T00:01:00.000Z' } };
    const withdrawn = { type: 'session.continuation_withdrawn', data: { childId: 'c', withdrawnAt: '2026-01-01T00:02:00.000Z' } };
    const again: SegmentCommand = {
      kind: 'continue',
      sessionId: 's',
      eventId: 'again',
      continued: { childId: 'c2', summary: 'S2', summaryId: 'sum2', continuedAt: '2026-01-01T00:03:00.000Z' },
      childGiven: true,
      child: 'free',
    };
    for (const command of [message('m1', 'e-m1'), begin('t1'), again]) {
      expect(() => when(given(started, continued), command)).toThrow(expect.objectContaining({ type: 'session_sealed' }));
      expect(when(given(started, continued, withdrawn), command).events).toHaveLength(1);
    }
    // A withdrawal naming another child leaves the segment sealed.
    expect(() => when(given(started, continued, { ...withdrawn, data: { ...withdrawn.data, childId: 'x' } }), begin('t1'))).toThrow(expect.objectContaining({ type: 'session_sealed' }));
  });
});
