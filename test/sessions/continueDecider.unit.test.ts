import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@session-ledger/core';
import { segmentDecider, type ChildStream, type ObservedChild, type SegmentCommand } from '@session-ledger/sessions';

/** Given: a segment's stored events (only id, type and data matter to the decider). */
const given = (...events: Array<{ type: string; data: Record<string, unknown> }>) => {
  let state = segmentDecider.initialState();
  events.forEach((event, revision) => {
    const recorded: RecordedEvent = { streamName: 'session-s', id: `e${revision}`, type: event.type, revision: BigInt(revision), position: BigInt(revision), data: event.data as never, metadata: {}, created: '' };
    state = segmentDecider.evolve(state, recorded);
  });
  return state;
};

const started = { type: 'session.started', data: { sessionId: 's', rootId: 's', parentId: null, link: null, startedAt: '2026-01-01T00:00:00.000Z' } };
const continuation = (childId: string, summary = 'S') => ({ childId, summary, summaryId: `sum-${childId}`, continuedAt: '2026-01-01T00:01:00.000Z' });
const continuedInto = (childId: string, summary = 'S') => ({ type: 'session.continued', data: continuation(childId, summary) });
const message = { type: 'message.appended', data: { messageId: 'm1' } };

/** When: compress into `childId`, the writer having read `child` for its stream (and `pending` for the stored continuation's child). */
const compress = (childId: string, child: ChildStream, options: { pending?: ObservedChild; childGiven?: boolean; summary?: string } = {}): SegmentCommand => ({
  kind: 'continue',
  sessionId: 's',
  eventId: `ev-${childId}`,
  continued: continuation(childId, options.summary),
  childGiven: options.childGiven ?? true,
  child,
  ...(options.pending ? { pending: options.pending } : {}),
});
const when = (state: ReturnType<typeof given>, command: SegmentCommand) => segmentDecider.decide(command, state);

describe('compression decider: a child id that is taken (Given events / When continue / Then events or error)', () => {
  it('given no events, when compressed, then the session is not found, whatever the child', () => {
    expect(() => when(given(), compress('c', 'free'))).toThrow(expect.objectContaining({ type: 'not_found' }));
  });

  it('given an open segment, when compressed into an id another live session holds, then duplicate and no event', () => {
    expect(() => when(given(started, message), compress('other', 'taken'))).toThrow(
      expect.objectContaining({ type: 'duplicate', message: 'session other already exists: compress into another childId' }),
    );
  });

  it('given an open segment, when compressed into a deleted (tombstoned) id, then session_deleted naming it', () => {
    expect(() => when(given(started), compress('gone', 'deleted'))).toThrow(expect.objectContaining({ type: 'session_deleted', details: { sessionId: 'gone' } }));
  });

  it('given an open segment, when compressed into its own id, then duplicate whatever the writer read', () => {
    expect(() => when(given(started), compress('s', 'free'))).toThrow(expect.objectContaining({ type: 'duplicate' }));
  });

  it('given an open segment, when compressed into a free id, then one session.continued naming it', () => {
    const { events, reply } = when(given(started), compress('c', 'free'));
    expect(events).toEqual([expect.objectContaining({ id: 'ev-c', type: 'session.continued', data: expect.objectContaining({ childId: 'c' }) })]);
    expect(reply.continued?.childId).toBe('c');
  });

  it('given a continuation whose child id another stream holds, when compressed into a fresh id, then a new session.continued supersedes it', () => {
    const state = given(started, continuedInto('other'));
    for (const stream of ['taken', 'deleted'] as const) {
      const { events, reply } = when(state, compress('fresh', 'free', { pending: { childId: 'other', stream } }));
      expect(events.map((event) => [event.type, (event.data as { childId: string }).childId])).toEqual([['session.continued', 'fresh']]);
      expect(reply.continued?.childId).toBe('fresh');
    }
  });

  it('given such a stuck continuation, when the same summary comes without a child id, then it supersedes too (never a no-op into the taken id)', () => {
    const { events } = when(given(started, continuedInto('other')), compress('random', 'free', { pending: { childId: 'other', stream: 'taken' }, childGiven: false }));
    expect(events).toHaveLength(1);
  });

  it('given a continuation into the segment\'s own id, when compressed into a fresh id, then it supersedes without any read of the pending child', () => {
    expect(when(given(started, continuedInto('s')), compress('fresh', 'free')).events).toHaveLength(1);
  });

  it('given a stuck continuation, when compressed again into the same taken id, then the taken error and no event', () => {
    const state = given(started, continuedInto('other'));
    expect(() => when(state, compress('other', 'taken', { pending: { childId: 'other', stream: 'taken' } }))).toThrow(expect.objectContaining({ type: 'duplicate' }));
    expect(() => when(given(started, continuedInto('gone')), compress('gone', 'deleted', { pending: { childId: 'gone', stream: 'deleted' } }))).toThrow(
      expect.objectContaining({ type: 'session_deleted' }),
    );
  });

  it('given a stuck continuation, when the fresh id is taken as well, then that refusal and no event', () => {
    expect(() => when(given(started, continuedInto('other')), compress('other2', 'taken', { pending: { childId: 'other', stream: 'taken' } }))).toThrow(
      expect.objectContaining({ type: 'duplicate', details: { what: 'session other2' } }),
    );
  });

  it('given a continuation whose child started (ours) or is not started yet (free), when another child comes, then session_sealed: only a taken child is superseded', () => {
    const state = given(started, continuedInto('c'));
    for (const stream of ['ours', 'free'] as const) {
      expect(() => when(state, compress('d', 'free', { pending: { childId: 'c', stream } }))).toThrow(expect.objectContaining({ type: 'session_sealed', details: expect.objectContaining({ tipId: 'c' }) }));
    }
  });

  it('given a stuck continuation, when the writer read another pending child than the stored one (a racing supersede) or none, then session_sealed', () => {
    const state = given(started, continuedInto('other'), continuedInto('fresh'));
    expect(() => when(state, compress('third', 'free', { pending: { childId: 'other', stream: 'taken' } }))).toThrow(
      expect.objectContaining({ type: 'session_sealed', details: expect.objectContaining({ tipId: 'fresh' }) }),
    );
    expect(() => when(given(started, continuedInto('other')), compress('third', 'free'))).toThrow(expect.objectContaining({ type: 'session_sealed' }));
  });

  it('given a superseded continuation, when the superseding compression comes again, then no-op; when a message comes, then sealed naming the new child', () => {
    const state = given(started, continuedInto('other'), continuedInto('fresh'));
    expect(when(state, compress('fresh', 'ours', { pending: { childId: 'fresh', stream: 'ours' } })).events).toEqual([]);
    const append: SegmentCommand = { kind: 'append_messages', sessionId: 's', messages: [{ messageId: 'm2', eventId: 'x', data: { messageId: 'm2', role: 'user', content: 'hi', timestamp: '2026-01-01T00:10:00.000Z' } }], turnIds: [] };
    expect(() => when(state, append)).toThrow(expect.objectContaining({ type: 'session_sealed', details: expect.objectContaining({ tipId: 'fresh' }) }));
  });
});
