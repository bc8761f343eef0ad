import { deterministicId } from '@session-ledger/core';
import { encodeSessionEvent } from '@session-ledger/events';
import type { PlannedEvent } from './stepEvent.js';

/** The `history.rewound` reason of messages whose rows Hermes deleted and wrote again (`replace_messages`). */
export const REPLACED = 'replaced';

/**
 * The rewind of messages whose Hermes rows are gone because Hermes rewrote the transcript (`/retry`,
 * an editor save, a `/compress` rewrite: `replace_messages` deletes the rows and inserts the kept
 * ones again under new row ids). They leave the display and active views, as they left Hermes'; the
 * raw view keeps them. Its id hashes the messages it retires, so a repeated import finds it.
 */
export const replacedEvent = (stream: string, messageIds: string[], rowIds: number[], rewoundAt: string): PlannedEvent => {
  const encoded = encodeSessionEvent({ type: 'history.rewound', data: { messageIds, reason: REPLACED, rewoundAt } });
  const metadata = encoded.metadata;
  metadata.importedFrom = 'hermes';
  metadata.hermes = { rowIds, replaced: true };
  return {
    id: deterministicId('hermes-import', stream, `x|${messageIds.join(',')}`),
    type: encoded.type,
    data: encoded.data as PlannedEvent['data'],
    metadata,
    rowIds: [],
  };
};

/**
 * The reopen of a session whose end Hermes cleared (`reopen_session`: a resumed CLI, gateway or TUI
 * session) since an earlier import wrote that end. Its id hashes the end it follows.
 */
export const reopenedEvent = (stream: string, endId: string, reopenedAt: string): PlannedEvent => {
  const encoded = encodeSessionEvent({ type: 'session.reopened', data: { reopenedAt } });
  const metadata = encoded.metadata;
  metadata.importedFrom = 'hermes';
  return { id: deterministicId('hermes-import', stream, `o|${endId}`), type: encoded.type, data: encoded.data as PlannedEvent['data'], metadata, rowIds: [] };
};

/**
 * The withdrawal of a continuation into a compression child Hermes deleted, once Hermes went on in
 * the segment (`reopen_orphaned_compression_session` clears its compression end before the next
 * turn): the ledger keeps the child, as a conversation of its own, and the segment takes the rows
 * Hermes writes there. Its id hashes the continuation it withdraws.
 */
export const withdrawnEvent = (stream: string, continuedId: string, childId: string, withdrawnAt: string): PlannedEvent => {
  const encoded = encodeSessionEvent({ type: 'session.continuation_withdrawn', data: { childId, withdrawnAt } });
  const metadata = encoded.metadata;
  metadata.importedFrom = 'hermes';
  return { id: deterministicId('hermes-import', stream, `w|${continuedId}`), type: encoded.type, data: encoded.data as PlannedEvent['data'], metadata, rowIds: [] };
};
