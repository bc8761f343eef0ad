import { readStreamState, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import type { ChildStream } from '../decide/commands.js';

/**
 * What the stream of a compression child id holds now, for the segment decider: free (never
 * written, or soft-deleted), ours (its start names `parentId` as its compression parent), taken by
 * another live stream, or deleted (tombstoned). One read of the stream's first event.
 */
export const childStreamOf = async (store: EventStore, parentId: string, childId: string): Promise<ChildStream> => {
  const read = await readStreamState(store, sessionStream(childId), { maxCount: 1 });
  if (read.state === 'absent') return 'free';
  if (read.state === 'tombstoned') return 'deleted';
  const data = read.events[0]?.type === 'session.started' ? (read.events[0].data as { parentId?: unknown; link?: unknown }) : null;
  return data?.parentId === parentId && data.link === 'compression' ? 'ours' : 'taken';
};
