import type { SessionRecord } from '@session-ledger/events';

/** The writer's time of an event (the harness clock), not the store's commit time. */
export const eventTimeOf = (record: SessionRecord): string => {
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
    case 'session.child_linked':
      return record.data.linkedAt;
  }
};

const sameShape = (a: string, b: string) => a.length === b.length && a.endsWith('Z') && b.endsWith('Z');

/** The later of two ISO times; UTC times of one shape compare as text, others are parsed. */
export const laterOf = (current: string | null, next: string): string => {
  if (current === null) return next;
  if (sameShape(current, next)) return next > current ? next : current;
  return Date.parse(next) > Date.parse(current) ? next : current;
};
