import { deterministicId, readStreamIfAny, type EventData, type EventStore, type RecordedEvent, type StreamInfo } from '@session-ledger/core';
import type { MismatchLog } from './mismatches.js';
import { PLACEHOLDER_TYPE, readMigrationCheckpoint, type MigrationNames } from './names.js';

const CHUNK = 500;

export interface PrefixContext {
  to: EventStore;
  names: MigrationNames;
  mismatches: MismatchLog;
  /** The target's own listing, when it has one, read once. */
  targetStreams: () => Promise<Map<string, StreamInfo> | null>;
  /** Streams whose rebuilt prefix this run has already checked. */
  checked: Set<string>;
}

const standInId = (stream: string, revision: bigint) => deterministicId('migration-placeholder', stream, revision);

const placeholders = (stream: string, from: bigint, to: bigint): EventData[] => {
  const out: EventData[] = [];
  for (let revision = from; revision <= to; revision += 1n) out.push({ id: standInId(stream, revision), type: PLACEHOLDER_TYPE, data: {}, metadata: {} });
  return out;
};

const isStandIn = (stream: string, event: RecordedEvent): boolean =>
  event.type === PLACEHOLDER_TYPE && event.id === standInId(stream, event.revision);

const lastLive = async (store: EventStore, stream: string): Promise<RecordedEvent | null> => {
  const events = await readStreamIfAny(store, stream, { direction: 'backwards', maxCount: 1 });
  return events?.[0] ?? null;
};

/**
 * Writes the stand-ins `from..upTo` at exactly those revisions (the stream ends at `after`), then
 * stores the marker "every stand-in written" and soft-deletes them. False (reported) when the
 * target puts them elsewhere.
 */
const writeAndDelete = async (context: PrefixContext, stream: string, from: bigint, upTo: bigint): Promise<boolean> => {
  const { to, names, mismatches } = context;
  let expected: bigint | 'no_stream' = from === 0n ? 'no_stream' : from - 1n;
  for (let start = from; start <= upTo; start += BigInt(CHUNK)) {
    const end = start + BigInt(CHUNK) - 1n < upTo ? start + BigInt(CHUNK) - 1n : upTo;
    const result = await to.appendToStream(stream, placeholders(stream, start, end), { expectedRevision: expected });
    if (result.nextExpectedRevision !== end) {
      mismatches.report(stream, 'the target already has a deleted stream of that name', `deleted up to ${upTo}`, `revision ${result.nextExpectedRevision}`);
      return false;
    }
    expected = end;
  }
  await to.storeCheckpoint(names.gap(stream), upTo);
  await to.deleteStream(stream, { expectedRevision: upTo });
  return true;
};

/**
 * Finishes a rebuild of `stream`'s prefix up to `upTo` that an earlier run began, from what the
 * target holds: every stand-in written ("gap" marker) and none live: done; every stand-in live:
 * delete them; the intent stored and stand-ins live up to a lower revision: write the rest, then
 * delete. Returns false when there is no such rebuild to finish (nothing live, no marker).
 */
const finishRebuild = async (context: PrefixContext, stream: string, upTo: bigint, live: RecordedEvent | null): Promise<boolean> => {
  const { to, names } = context;
  if ((await readMigrationCheckpoint(to, names, (each) => each.gap(stream))) === upTo) {
    if (live === null) return true;
    if (live.revision === upTo && isStandIn(stream, live)) {
      await to.deleteStream(stream, { expectedRevision: upTo });
      return true;
    }
    return false;
  }
  if (live === null || live.revision > upTo || !isStandIn(stream, live)) return false;
  if ((await to.readCheckpoint(names.intent(stream))) !== upTo) return false;
  return writeAndDelete(context, stream, live.revision + 1n, upTo);
};

/**
 * Makes the target stream "soft-deleted up to revision `upTo`", as the source stream is, so the
 * events after it keep their revisions (and their hash links). Stand-in events fill revisions
 * 0..upTo and are soft-deleted at once. The intent is stored (a named checkpoint in the target)
 * before the first stand-in, and a second marker once all are written, so a rebuild interrupted
 * anywhere resumes without writing anything twice and never leaves a stand-in live.
 * Only a stream missing from the target is rebuilt, and one deleted up to the same revision is taken
 * as rebuilt: a live one, or one deleted up to another revision, is reported.
 */
export const rebuildDeletedPrefix = async (context: PrefixContext, stream: string, upTo: bigint): Promise<boolean> => {
  const { to, mismatches } = context;
  const live = await lastLive(to, stream);
  if (await finishRebuild(context, stream, upTo, live)) return true;
  if (live !== null) {
    mismatches.report(stream, 'the source deleted revisions the target holds live', `deleted up to ${upTo}`, `live up to ${live.revision}`);
    return false;
  }
  const known = (await context.targetStreams())?.get(stream);
  if (known && known.lastRevision === upTo) {
    // Deleted up to the same revision with nothing live: the state this rebuild makes (what the deleted events
    // held is gone on both sides), e.g. a finished run under another source key (outside test, session 26: the
    // same ledger moved to another path failed on every soft-deleted stream, for good). Marked done for this key.
    await to.storeCheckpoint(context.names.gap(stream), upTo);
    return true;
  }
  if (known && known.lastRevision >= 0n) {
    mismatches.report(stream, 'the target already has a deleted stream of that name', `deleted up to ${upTo}`, `deleted up to ${known.lastRevision}`);
    return false;
  }
  await to.storeCheckpoint(context.names.intent(stream), upTo);
  return writeAndDelete(context, stream, 0n, upTo);
};

/**
 * Before a stream's first append in a run: a prefix rebuild that was interrupted while its
 * stand-ins were written, or after they were but before they were deleted, is finished first,
 * so nothing is ever appended after live stand-ins.
 */
export const finishInterruptedPrefix = async (context: PrefixContext, stream: string): Promise<void> => {
  if (context.checked.has(stream)) return;
  context.checked.add(stream);
  const { to, names } = context;
  const upTo = (await readMigrationCheckpoint(to, names, (each) => each.gap(stream))) ?? (await to.readCheckpoint(names.intent(stream)));
  if (upTo === null) return;
  const live = await lastLive(to, stream);
  if (live !== null) await finishRebuild(context, stream, upTo, live);
};
