import type { SessionRecord } from '@session-ledger/events';

/**
 * When an event happened: the writer's time (the harness clock, or the source's time of an import),
 * but never later than the store's commit time (`created`). A caller-given time in the future
 * (`9999-12-31…`) pinned a conversation's last activity: first in every list, inside every `--since`,
 * never pruned (outside test, session 26).
 */
export const eventTimeOf = (record: SessionRecord): string => {
  const written = writerTimeOf(record);
  return record.created ? earlierOf(written, record.created) : written;
};

/** The writer's time of an event, as given. */
const writerTimeOf = (record: SessionRecord): string => {
  switch (record.type) {
    case 'session.started':
    case 'turn.started':
      return record.data.startedAt;
    case 'turn.lease_renewed':
      return record.data.renewedAt;
    case 'turn.ended':
    case 'session.ended':
      return record.data.endedAt;
    case 'message.appended':
      return record.data.timestamp;
    case 'message.rewritten':
      return record.data.rewrittenAt;
    case 'history.rewound':
      return record.data.rewoundAt;
    case 'history.compacted':
      return record.data.compactedAt;
    case 'session.continued':
      return record.data.continuedAt;
    case 'session.continuation_withdrawn':
      return record.data.withdrawnAt;
    case 'session.child_linked':
      return record.data.linkedAt;
    case 'session.reopened':
      return record.data.reopenedAt;
  }
};

const sameShape = (a: string, b: string) => a.length === b.length && a.endsWith('Z') && b.endsWith('Z');

/** The later of two ISO times; UTC times of one shape compare as text, others are parsed. */
export const laterOf = (current: string | null, next: string): string => {
  if (current === null) return next;
  if (sameShape(current, next)) return next > current ? next : current;
  return Date.parse(next) > Date.parse(current) ? next : current;
};

/** The earlier of two ISO times, by the rule `laterOf` uses. */
export const earlierOf = (current: string | null, next: string): string => {
  if (current === null) return next;
  if (sameShape(current, next)) return next < current ? next : current;
  return Date.parse(next) < Date.parse(current) ? next : current;
};
