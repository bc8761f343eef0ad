import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '@session-ledger/core';
import { rawView, viewToJson } from '@session-ledger/projections';

describe('raw view', () => {
  it('given stored events, including one no schema knows, when viewed raw, then every event is there as stored', () => {
    const events: RecordedEvent[] = [
      { streamName: 'session-a', id: 'e1', type: 'session.started', revision: 0n, position: 7n, data: { x: 1 }, metadata: { hash: 'h' }, created: 't' },
      { streamName: 'session-a', id: 'e2', type: 'custom.note', revision: 1n, position: 9n, data: null, metadata: {}, created: 't' },
    ];

    const view = rawView(events);

    expect(view.events.map((event) => [event.sessionId, event.type, event.revision, event.position])).toEqual([
      ['a', 'session.started', 0n, 7n],
      ['a', 'custom.note', 1n, 9n],
    ]);
    expect(viewToJson(view).events[0]).toMatchObject({ revision: 0, position: 7, data: { x: 1 }, metadata: { hash: 'h' } });
  });
});
