import type { Ledger, RetryPolicy } from '@session-ledger/core';
import { sessionIdOf } from '@session-ledger/events';
import { completeIntent } from './delete/completeIntent.js';
import type { PendingIntent } from './delete/intents.js';

/** What finishing recorded intents did, in deleteSession's terms. */
export interface ResumedDeletion {
  rootId: string;
  sessionIds: string[];
  deleted: string[];
}

/**
 * Finishes the pending intents that name a session (a deletion killed between its tombstones):
 * each intent's streams at its revisions, then its outcome record. No new read, no If-Match: the
 * deletion was decided, and guarded, when the intent was recorded; a stream that moved since
 * refuses it (drift or partial_deletion, as at the time).
 */
export const resumeDeletion = async (ledger: Ledger, intents: readonly PendingIntent[], options: { now: Date; retry?: RetryPolicy }): Promise<ResumedDeletion> => {
  const deleted: string[] = [];
  const sessionIds = new Set<string>();
  for (const intent of intents) {
    for (const { stream } of intent.plan.streams) sessionIds.add(sessionIdOf(stream) ?? stream);
    deleted.push(...(await completeIntent(ledger, intent, options)));
  }
  // several intents may name one stream: it went once (it was listed twice; outside test, session 24)
  return { rootId: intents[0]!.plan.rootId, sessionIds: [...sessionIds], deleted: [...new Set(deleted)] };
};
