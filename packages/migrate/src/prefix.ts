import { deterministicId, readStreamIfAny, type EventData, type EventStore, type StreamInfo } from '@session-ledger/core';
import type { MismatchLog } from './mismatches.js';
import { PLACEHOLDER_TYPE, type MigrationNames } from './names.js';

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

const placeholders = (stream: string, from: bigint, to: bigint): EventData[] => {
  const out: EventData[] = [];
  for (let revision = from; revision <= to; revision += 1n) {
    out.push({ id: deterministicId('migration-placeholder', stream, revision), type: PLACEHOLDER_TYPE, data: {}, metadata: {} });
  }
  return out;
};

const lastLive = async (store: EventStore, stream: string): Promise<bigint | null> => {
  const events = await readStreamIfAny(store, stream, { direction: 'backwards', maxCount: 1 });
  return events?.[0]?.revision ?? null;
};

/**
 * Makes the target stream "soft-deleted up to revision `upTo`", as the source stream is, so the
 * events after it keep their revisions (and their hash links). Stand-in events fill revisions
 * 0..upTo and are soft-deleted at once. A marker (a named checkpoint in the target) is written
 * between the two steps, so an interrupted rebuild resumes without writing anything twice.
 * Only a stream missing from the target is rebuilt: a live or foreign deleted one is reported.
 */
export const rebuildDeletedPrefix = async (context: PrefixContext, stream: string, upTo: bigint): Promise<boolean> => {
  const { to, names, mismatches } = context;
  const marker = await to.readCheckpoint(names.gap(stream));
  const live = await lastLive(to, stream);
  if (marker === upTo) {
    if (live === null) return true;
    if (live === upTo) {
      await to.deleteStream(stream, { expectedRevision: upTo });
      return true;
    }
  }
  if (live !== null) {
    mismatches.report(stream, 'the source deleted revisions the target holds live', `deleted up to ${upTo}`, `live up to ${live}`);
    return false;
  }
  const known = (await context.targetStreams())?.get(stream);
  if (known && known.lastRevision >= 0n) {
    mismatches.report(stream, 'the target already has a deleted stream of that name', `deleted up to ${upTo}`, `deleted up to ${known.lastRevision}`);
    return false;
  }
  let expected: bigint | 'no_stream' = 'no_stream';
  for (let start = 0n; start <= upTo; start += BigInt(CHUNK)) {
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
 * Before a stream's first append in a run: a prefix rebuild that was interrupted after its
 * stand-ins were written, but before they were deleted, is finished first, so nothing is ever
 * appended after live stand-ins.
 */
export const finishInterruptedPrefix = async (context: PrefixContext, stream: string): Promise<void> => {
  if (context.checked.has(stream)) return;
  context.checked.add(stream);
  const marker = await context.to.readCheckpoint(context.names.gap(stream));
  if (marker === null) return;
  if ((await lastLive(context.to, stream)) === marker) await context.to.deleteStream(stream, { expectedRevision: marker });
};
