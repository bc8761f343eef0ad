import { isLedgerError, readStreamState, type EventStore, type StreamInfo } from '@session-ledger/core';
import { rebuildDeletedPrefix, type PrefixContext } from './prefix.js';

type TargetState = { kind: 'live'; last: bigint } | { kind: 'missing' } | { kind: 'tombstoned' };

export const targetState = async (store: EventStore, stream: string): Promise<TargetState> => {
  const read = await readStreamState(store, stream, { direction: 'backwards', maxCount: 1 });
  if (read.state === 'tombstoned') return { kind: 'tombstoned' };
  const last = read.state === 'live' ? read.events[0] : undefined;
  return last ? { kind: 'live', last: last.revision } : { kind: 'missing' };
};

/** A stream with no readable events left: tombstoned, or soft-deleted to its last revision. */
export const isDeleted = (info: StreamInfo): boolean => info.tombstoned || info.lastRevision < info.firstLive;

/**
 * Carries one deleted stream, which $all cannot show: a tombstone is tombstoned in the target
 * (never recreated there), a soft-deleted stream is rebuilt deleted up to the same revision.
 * A target stream that is live is reported, not deleted: the copy never destroys target data.
 */
export const carryDeletion = async (context: PrefixContext, info: StreamInfo): Promise<boolean> => {
  const state = await targetState(context.to, info.name);
  if (info.tombstoned) {
    if (state.kind === 'tombstoned') return true;
    if (state.kind === 'live') {
      context.mismatches.report(info.name, 'the source tombstoned a stream the target holds live', 'tombstoned', `live up to ${state.last}`);
      return false;
    }
    // Soft-deleted in the target through another revision: its own history, which it could still go on
    // with; a tombstone would end it for good (outside test, session 34, helper-95 F4). The same
    // revision is this migration's own rebuild of the source's earlier soft delete.
    const known = (await context.targetStreams())?.get(info.name);
    if (known && known.lastRevision >= 0n && known.lastRevision !== info.lastRevision) {
      context.mismatches.report(info.name, 'the target already has a deleted stream of that name', `tombstoned through ${info.lastRevision}`, `deleted up to ${known.lastRevision}`);
      return false;
    }
    try {
      await context.to.tombstoneStream(info.name, { expectedRevision: 'no_stream' });
    } catch (error) {
      if (!isLedgerError(error, 'stream_deleted')) throw error;
    }
    return true;
  }
  if (state.kind === 'tombstoned') {
    context.mismatches.report(info.name, 'the target stream is tombstoned', `deleted up to ${info.lastRevision}`, 'tombstoned');
    return false;
  }
  return rebuildDeletedPrefix(context, info.name, info.lastRevision);
};
