import type { EventStore, RecordedEvent } from '@session-ledger/core';
import { decodeSessionEvent, type SessionContinued } from '@session-ledger/events';
import { readTail } from './segmentEvents.js';

/** The latest turn of a segment (or the one its compression parent handed over). */
export interface TurnInfo {
  turnId: string;
  owner: string;
  leaseExpiresAt: string;
  ended: boolean;
}

/** What a writer needs to know about a segment before a conditional write. */
export interface SegmentTail {
  sessionId: string;
  /** The current revision: what the next conditional write expects. */
  revision: bigint;
  head: RecordedEvent;
  /** Set when the last event is `session.continued`: the segment is sealed. */
  continued: SessionContinued | null;
  ended: boolean;
  /** Event ids of the newest events, to recognize a retry of a write that already landed. */
  recentIds: Map<string, bigint>;
  /** The latest turn, when asked for (`turns: true`). */
  turn: TurnInfo | null;
}

const PAGE = 64;

/**
 * Reads a segment from its end: the head, the newest event ids, and (optionally) back to the latest
 * `turn.started` or to the segment start, whichever comes first, so a turn check costs one turn's
 * events, not the whole history.
 */
export const readSegmentTail = async (store: EventStore, sessionId: string, options: { turns?: boolean } = {}): Promise<SegmentTail> => {
  let page = await readTail(store, sessionId, PAGE);
  const head = page[0]!;
  const tail: SegmentTail = {
    sessionId,
    revision: head.revision,
    head,
    continued: head.type === 'session.continued' ? (decodeSessionEvent(head).data as SessionContinued) : null,
    ended: head.type === 'session.ended',
    recentIds: new Map(page.map((event) => [event.id, event.revision])),
    turn: null,
  };
  if (!options.turns) return tail;
  const ended = new Set<string>();
  const renewed = new Map<string, string>();
  for (;;) {
    for (const event of page) {
      if (event.type === 'turn.ended' || event.type === 'turn.lease_renewed') {
        const record = decodeSessionEvent(event);
        if (record.type === 'turn.ended') ended.add(record.data.turnId);
        else if (record.type === 'turn.lease_renewed' && !renewed.has(record.data.turnId)) renewed.set(record.data.turnId, record.data.leaseExpiresAt);
      } else if (event.type === 'turn.started' || event.type === 'session.started') {
        const record = decodeSessionEvent(event);
        const started = record.type === 'turn.started' ? record.data : record.type === 'session.started' ? record.data.openTurn ?? null : null;
        if (started) {
          const { turnId, owner, leaseExpiresAt } = started;
          tail.turn = { turnId, owner, leaseExpiresAt: renewed.get(turnId) ?? leaseExpiresAt, ended: ended.has(turnId) };
        }
        if (started || event.type === 'session.started') return tail;
      }
    }
    const oldest = page[page.length - 1]!.revision;
    if (page.length < PAGE || oldest === 0n) return tail;
    page = await readTail(store, sessionId, PAGE, oldest);
    if (page.length === 0) return tail;
  }
};
