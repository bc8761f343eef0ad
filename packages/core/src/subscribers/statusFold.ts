import type { EventAt, SubscriberBook, SubscriberStatusMap } from './statusBook.js';

type Fields = Record<string, unknown>;

const isFields = (data: unknown): data is Fields => typeof data === 'object' && data !== null && !Array.isArray(data);

/** The event's place, or null when a field is missing or of the wrong type. */
const eventAt = (data: Fields): EventAt | null => {
  const { stream, revision, position, eventId, eventType } = data;
  if (typeof stream !== 'string' || typeof revision !== 'number' || typeof position !== 'number' || typeof eventId !== 'string') return null;
  return typeof eventType === 'string' ? { stream, revision, position, eventId, eventType } : { stream, revision, position, eventId };
};

/** Applies one status event of `book` to `out` and returns it; unknown or malformed events are ignored. */
export const reduceSubscriberStatus = (
  book: SubscriberBook,
  out: SubscriberStatusMap,
  event: { type: string; data: unknown; created?: string },
): SubscriberStatusMap => {
  const { data } = event;
  if (!isFields(data) || typeof data.name !== 'string') return out;
  const { name } = data;
  const current = out.get(name) ?? { name, state: 'active' as const, skipped: 0 };
  const at = eventAt(data);
  if (event.type === book.types.parked) {
    if (typeof data.reason !== 'string' || typeof data.attempts !== 'number') return out;
    // Without a place: parked before delivering anything (a memory provider whose prepare failed).
    const { failed: _failed, ...rest } = current;
    const parked = at ? { ...current, state: 'parked' as const, reason: data.reason, failed: { ...at, attempts: data.attempts } } : { ...rest, state: 'parked' as const, reason: data.reason };
    out.set(name, event.created === undefined ? parked : { ...parked, parkedAt: event.created });
  } else if (event.type === book.types.resumed) {
    const { reason: _reason, parkedAt: _parkedAt, failed: _failed, ...rest } = current;
    out.set(name, { ...rest, state: 'active' });
  } else if (event.type === book.types.skipped) {
    if (!at || typeof data.reason !== 'string') return out;
    out.set(name, { ...current, skipped: current.skipped + 1, lastSkipped: { ...at, reason: data.reason } });
  } else if (event.type === book.types.registered) out.set(name, current);
  return out;
};

/** The status of every subscriber of `book`, in registration order. */
export const foldSubscriberStatus = (
  book: SubscriberBook,
  events: ReadonlyArray<{ type: string; data: unknown; created?: string }>,
): SubscriberStatusMap => {
  const out: SubscriberStatusMap = new Map();
  for (const event of events) reduceSubscriberStatus(book, out, event);
  return out;
};
