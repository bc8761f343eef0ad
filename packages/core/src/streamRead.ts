import type { ReadStreamOptions, RecordedEvent } from './envelope.js';
import { isLedgerError } from './errors.js';
import type { EventStore } from './port.js';

/** A read that answers the stream's state instead of throwing it: absent (never written, or soft-deleted), tombstoned, or its events. */
export type StreamRead = { state: 'absent' } | { state: 'tombstoned' } | { state: 'live'; events: RecordedEvent[] };

/**
 * The one place that turns the port's stream_not_found and stream_deleted into a state, so callers
 * branch on what the stream is rather than catch errors. Any other error is thrown.
 */
export const readStreamState = async (store: EventStore, stream: string, options?: ReadStreamOptions): Promise<StreamRead> => {
  try {
    return { state: 'live', events: await store.readStream(stream, options) };
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) return { state: 'absent' };
    if (isLedgerError(error, 'stream_deleted')) return { state: 'tombstoned' };
    throw error;
  }
};

/** The events, or null when the stream is absent; a tombstoned stream still throws stream_deleted. */
export const readStreamIfAny = async (store: EventStore, stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[] | null> => {
  const read = await readStreamState(store, stream, options);
  if (read.state === 'tombstoned') return store.readStream(stream, options); // throws the store's own stream_deleted
  return read.state === 'live' ? read.events : null;
};
