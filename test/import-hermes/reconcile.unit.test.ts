import { describe, expect, it } from 'vitest';
import type { JsonObject, RecordedEvent } from '@session-ledger/core';
import { reconcile, type SyncEvent } from '@session-ledger/import-hermes';

/** Given what a stream holds and what the plan has, when reconciled, then what is appended. */
const planned = (id: string, type: string, data: JsonObject, rowIds: number[] = []): SyncEvent => ({
  kind: type,
  event: { id, type, data: data as never, metadata: { importedFrom: 'hermes' }, rowIds },
});
const held = (events: SyncEvent[]): RecordedEvent[] =>
  events.map((item, revision) => ({
    streamName: 'session-s',
    id: item.event.id,
    type: item.event.type,
    revision: BigInt(revision),
    position: BigInt(revision),
    data: item.event.data as JsonObject,
    metadata: item.event.metadata,
    created: '2026-12-04T00:00:00.000Z',
  }));
const start = (id: string, summaryId: string) =>
  planned(id, 'session.started', { sessionId: 's', parentId: 'p', link: 'compression', startedAt: '2026-01-01T00:00:00.000Z', summaryId, summary: 'before' });
const message = (rowId: number, content = `row ${rowId}`) =>
  planned(`e${rowId}`, 'message.appended', { messageId: `hm-${rowId}`, role: 'user', content, timestamp: '2026-01-01T00:00:01.000Z' }, [rowId]);

describe('reconcile', () => {
  it('a compression segment Hermes rewrote: the held start and summary stand for the new ones, and later events name the held summary', () => {
    const before = held([start('s-old', 'hm-1'), message(1, 'before'), message(2), message(3)]);
    const compaction = planned('c', 'history.compacted', { messageIds: ['hm-10', 'hm-11'], summaryIds: ['hm-10'], summaryId: 'hm-12', summary: 'later', compactedAt: '2026-01-01T00:00:02.000Z' }, [12]);
    const result = reconcile('session-s', before, [start('s-new', 'hm-10'), message(10, 'before'), message(11), compaction], { liveRows: [10, 11, 12] });
    expect(result.kind).toBe('append');
    const events = (result as { events: SyncEvent[] }).events;
    expect(events.map((e) => [e.event.type, (e.event.data as JsonObject).messageIds ?? (e.event.data as JsonObject).messageId])).toEqual([
      ['history.rewound', ['hm-2', 'hm-3']],
      ['message.appended', 'hm-11'],
      ['history.compacted', ['hm-1', 'hm-11']],
    ]);
    expect((events[2]!.event.data as JsonObject).summaryIds).toEqual(['hm-1']);
  });

  it('a summary whose text changed is not taken for the held one: it is rewound, and the new one appended under its own id', () => {
    const result = reconcile('session-s', held([start('s-old', 'hm-1'), message(1, 'before'), message(2)]), [start('s-new', 'hm-10'), message(10, 'changed'), message(11)], { liveRows: [10, 11] });
    const events = (result as { events: SyncEvent[] }).events;
    expect(events.map((e) => [e.event.type, (e.event.data as JsonObject).messageIds ?? (e.event.data as JsonObject).messageId])).toEqual([
      ['history.rewound', ['hm-1', 'hm-2']],
      ['message.appended', 'hm-10'],
      ['message.appended', 'hm-11'],
    ]);
  });

  it('a summary the rewrite moved (rows copied before it) is rewound and appended again in its new place, under its own id', () => {
    const before = held([start('s-old', 'hm-60'), message(57, 'head'), message(60, 'before'), message(61)]);
    const result = reconcile('session-s', before, [start('s-new', 'hm-102'), message(99, 'head'), message(102, 'before'), message(103)], { liveRows: [99, 102, 103] });
    const events = (result as { events: SyncEvent[] }).events;
    expect(events.map((e) => [e.event.type, (e.event.data as JsonObject).messageIds ?? (e.event.data as JsonObject).messageId])).toEqual([
      ['history.rewound', ['hm-57', 'hm-60', 'hm-61']],
      ['message.appended', 'hm-99'],
      ['message.appended', 'hm-102'],
      ['message.appended', 'hm-103'],
    ]);
  });

  it('a start of another parent or link is not the same start: a conflict', () => {
    const other = planned('s-other', 'session.started', { sessionId: 's', parentId: 'q', link: 'compression', startedAt: '2026-01-01T00:00:00.000Z', summaryId: 'hm-10' });
    expect(reconcile('session-s', held([start('s-old', 'hm-1'), message(1)]), [other, message(10)], { liveRows: [10] }).kind).toBe('conflict');
  });

  it('a segment Hermes orphaned (its parent deleted): the held continuation start stands for the root start and its summary message', () => {
    const root = planned('s-root', 'session.started', { sessionId: 's', parentId: null, link: null, startedAt: '2026-01-01T00:00:00.000Z' });
    const result = reconcile('session-s', held([start('s-old', 'hm-1'), message(2)]), [root, message(1, 'before'), message(2), message(3)], { liveRows: [1, 2, 3] });
    expect(result).toEqual({ kind: 'append', events: [message(3)] });
    // Where the summary row is a message too, the stream holds it: taken as it stands.
    const inline = reconcile('session-s', held([start('s-old', 'hm-1'), message(1, 'before'), message(2)]), [root, message(1, 'before'), message(2), message(3)], { liveRows: [1, 2, 3] });
    expect(inline).toEqual({ kind: 'append', events: [message(3)] });
    // Another start time is another session: a conflict.
    const later = planned('s-later', 'session.started', { sessionId: 's', parentId: null, link: null, startedAt: '2026-01-02T00:00:00.000Z' });
    expect(reconcile('session-s', held([start('s-old', 'hm-1'), message(2)]), [later, message(1, 'before'), message(2)], { liveRows: [1, 2] }).kind).toBe('conflict');
  });
});
