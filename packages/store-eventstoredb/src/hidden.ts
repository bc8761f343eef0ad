import type { RecordedEvent } from '@session-ledger/core';

/** The streams that keep this adapter's named checkpoints, one stream per name. */
export const CHECKPOINT_PREFIX = 'ledger-checkpoint-';

export const checkpointStream = (name: string): string => `${CHECKPOINT_PREFIX}${name}`;

/**
 * What $all reads and subscriptions never show: EventStoreDB's system streams and events
 * (names and types starting with `$`, such as `$$stream` metadata or `$streamDeleted`) and the
 * adapter's own checkpoint streams. The SQLite and memory stores have neither.
 */
export const isHidden = (event: Pick<RecordedEvent, 'streamName' | 'type'>): boolean =>
  event.streamName.startsWith('$') || event.type.startsWith('$') || event.streamName.startsWith(CHECKPOINT_PREFIX);
