import { describe, expect, it } from 'vitest';
import { deterministicId, type EventStore } from '@session-ledger/core';
import { encodeSessionEvent, sessionStream } from '@session-ledger/events';
import { exportSession } from '@session-ledger/retention';
import { appendMessage, compressSession, listConversations, loadConversation, renderTranscript, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

type Writer = ReturnType<typeof writerOn>;

const eventTypes = async (writer: Writer, id: string) => (await loadConversation(writer.store, id, { view: 'raw' })).events.map((event) => event.type);

/** A victim with one message, an unrelated session `other` (with a message) and a deleted (tombstoned) session `gone`. */
const setUp = async (writer: Writer) => {
  await startSession(writer.context, { id: 'other', title: 'unrelated' });
  await appendMessage(writer.context, 'other', { id: 'o1', role: 'user', content: 'unrelated message' });
  const gone = await startSession(writer.context, { id: 'gone' });
  await writer.store.tombstoneStream(sessionStream('gone'), { expectedRevision: gone.revision });
  await startSession(writer.context, { id: 'victim' });
  await appendMessage(writer.context, 'victim', { id: 'm1', role: 'user', content: 'hello' });
};

/** The state the old code left: `session.continued` naming a child id another stream holds, written straight into the victim. */
const stuckInto = async (writer: Writer, childId: string) => {
  const data = { childId, summary: 'old summary', summaryId: `sum-${childId}`, continuedAt: '2026-03-01T10:00:00.000Z' };
  await writer.ledger.append(sessionStream('victim'), [{ id: deterministicId('victim', 'session.continued', childId), ...encodeSessionEvent({ type: 'session.continued', data }) }]);
};

/** The views, resume and export all follow the child really started: victim, then fresh. */
const expectFollowsFresh = async (writer: Writer) => {
  const display = await loadConversation(writer.store, 'victim');
  expect(display).toMatchObject({ rootId: 'victim', tipId: 'fresh' });
  expect(display.segments.map((segment) => segment.sessionId)).toEqual(['victim', 'fresh']);
  expect(display.messages.map((message) => message.id)).toEqual(['m1', 'm2']);
  expect(display.markers.filter((marker) => marker.kind === 'compression')).toEqual([expect.objectContaining({ childId: 'fresh', summary: 'new summary' })]);
  const active = await loadConversation(writer.store, 'fresh', { view: 'active' });
  expect(active.messages).toEqual([expect.objectContaining({ kind: 'summary', content: 'new summary' }), expect.objectContaining({ id: 'm2' })]);
  expect(renderTranscript(display)).toContain('=== continued in fresh: new summary');
  expect(renderTranscript(display)).not.toContain('old summary');
  const rows = await listConversations(writer.store);
  expect(rows.find((row) => row.rootId === 'victim')).toMatchObject({ tipId: 'fresh', segments: ['victim', 'fresh'], messages: 2 });
  expect(rows.find((row) => row.rootId === 'other')).toMatchObject({ tipId: 'other', messages: 1 });
  const exported = await exportSession(writer.store, 'victim', { format: 'jsonl', now: writer.now() });
  expect(exported.streams.map((stream) => stream.stream)).toEqual([sessionStream('victim'), sessionStream('fresh')]);
};

/** A store that starts `late` as a session of its own right before the victim's `session.continued` is stored: the race the check cannot close. */
const takingChildFirst = (store: EventStore, writer: Writer): EventStore => ({
  ...store,
  async appendToStream(stream, events, options) {
    if (stream === sessionStream('victim') && events.some((event) => event.type === 'session.continued')) {
      await startSession(writer.context, { id: 'late' }).catch(() => undefined);
    }
    return store.appendToStream(stream, events, options);
  },
});

/** Each way a child id can be taken, and the refusal it gets. */
const TAKEN: Array<[string, string, string]> = [
  ['an existing session', 'other', 'duplicate'],
  ['the session itself', 'victim', 'duplicate'],
  ['a deleted session', 'gone', 'session_deleted'],
];

describe.each(STORES)('compress into a taken child id (%s)', (_name, open) => {
  it.each(TAKEN)('into %s: refused with nothing written, and the session stays writable and compressible', async (_case, childId, type) => {
    const writer = writerOn(open());
    await setUp(writer);
    const before = await eventTypes(writer, 'victim');

    await expect(compressSession(writer.context, 'victim', { summary: 's', childId })).rejects.toMatchObject({ type });

    expect(await eventTypes(writer, 'victim')).toEqual(before);
    await appendMessage(writer.context, 'victim', { id: 'm2', role: 'user', content: 'more' });
    expect(await compressSession(writer.context, 'victim', { summary: 's', childId: 'fresh' })).toMatchObject({ sessionId: 'fresh', rootId: 'victim', written: true });
    expect((await loadConversation(writer.store, 'other')).messages.map((message) => message.content)).toEqual(['unrelated message']);
  });

  it.each(TAKEN)('a continuation the old code left into %s: writes say to compress again, the same child is refused, a fresh one recovers and every view follows it', async (_case, childId, type) => {
    const writer = writerOn(open());
    await setUp(writer);
    await stuckInto(writer, childId);

    await expect(appendMessage(writer.context, 'victim', { role: 'user', content: 'x' })).rejects.toMatchObject({
      type: 'session_sealed',
      details: { sessionId: 'victim', tipId: 'victim' },
      message: expect.stringContaining('compress victim again into a new childId'),
    });
    await expect(compressSession(writer.context, 'victim', { summary: 'old summary', childId })).rejects.toMatchObject({ type });
    const compressed = await compressSession(writer.context, 'victim', { summary: 'new summary', childId: 'fresh' });
    await appendMessage(writer.context, 'fresh', { id: 'm2', role: 'user', content: 'after' });

    expect(compressed).toMatchObject({ sessionId: 'fresh', rootId: 'victim', parentId: 'victim', written: true });
    expect(await compressSession(writer.context, 'victim', { summary: 'new summary', childId: 'fresh' })).toMatchObject({ sessionId: 'fresh', written: false });
    await expect(compressSession(writer.context, 'victim', { summary: 'third', childId: 'third' })).rejects.toMatchObject({ type: 'session_sealed', details: { tipId: 'fresh' } });
    await expectFollowsFresh(writer);
  });

  it('a child id taken between the check and the parent\'s write: that compress fails, and a fresh one recovers', async () => {
    const writer = writerOn(open());
    await setUp(writer);
    const racing = { ...writer, context: { ...writer.context, ledger: writerOn(takingChildFirst(writer.store, writer)).ledger } };

    await expect(compressSession(racing.context, 'victim', { summary: 'lost', childId: 'late' })).rejects.toMatchObject({ type: 'duplicate' });
    await expect(appendMessage(writer.context, 'victim', { role: 'user', content: 'x' })).rejects.toMatchObject({ type: 'session_sealed' });

    await compressSession(writer.context, 'victim', { summary: 'new summary', childId: 'fresh' });
    await appendMessage(writer.context, 'fresh', { id: 'm2', role: 'user', content: 'after' });
    await expectFollowsFresh(writer);
    expect((await loadConversation(writer.store, 'late')).segments.map((segment) => segment.sessionId)).toEqual(['late']);
  });
});
