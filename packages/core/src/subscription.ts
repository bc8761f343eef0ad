import type { RecordedEvent } from './envelope.js';

/**
 * What a catch-up subscription yields: events in order, a caught-up signal each time it has
 * delivered everything stored so far, and the position it has scanned up to (for checkpoints
 * of filtered subscriptions, whose last delivered event may be far behind).
 */
export type SubscriptionItem =
  | { kind: 'event'; event: RecordedEvent }
  | { kind: 'caught_up'; position: bigint | null }
  | { kind: 'checkpoint'; position: bigint };

export interface Subscription extends AsyncIterable<SubscriptionItem> {
  close(): Promise<void>;
}
