import { liveEventFilter, liveStreamNames, type EventStore, type StreamInfo } from '@session-ledger/core';
import { copyRun, runsOf } from './copyRun.js';
import { carryDeletion, isDeleted } from './deletions.js';
import { mismatchLog } from './mismatches.js';
import { acquireLease } from './lease.js';
import { fencedBy } from './fenced.js';
import { LEASE_STREAM, migrationNames, readMigrationCheckpoint } from './names.js';
import type { PrefixContext } from './prefix.js';
import type { MigrationOptions, MigrationSummary } from './types.js';
import { verifyStream } from './verify.js';

/** The stores' own streams, minus the migration lease (a target's bookkeeping, never copied nor compared). */
const listing = async (store: EventStore): Promise<StreamInfo[] | null> =>
  store.listStreams ? (await store.listStreams()).filter((info) => info.name !== LEASE_STREAM) : null;

/**
 * Copies every stream of `from` into `to` in $all order: event ids, revisions, data and metadata
 * (hash chains included) unchanged, soft-deleted prefixes and deleted streams carried (the latter
 * only when the source can list them: SQLite and memory can, EventStoreDB cannot). The position
 * reached is a checkpoint in the target after every page, so a second call resumes after it;
 * appends carry the source revisions as expected revisions and the source event ids, so nothing
 * is written twice. Ends with a per-stream verification. Mismatches are reported in the summary,
 * never repaired by overwriting target data.
 *
 * One run into a target at a time: the run first takes the target's lease (a conditional append
 * to its lease stream, renewed every third of its TTL while the run lasts, released at the end).
 * A run that finds the lease held and unexpired throws migration_running before writing anything;
 * a lease left by a killed run is taken over once it expired (20 s by default). Every write into the
 * target checks the lease first (fenced.ts).
 */
export const migrateStores = async (options: MigrationOptions): Promise<MigrationSummary> => {
  const lease = await acquireLease(options.to, options.from.name, options.lease);
  try {
    const ensure = () => lease.ensure();
    return await migrateHeld({ ...options, to: fencedBy(options.to, ensure) }, ensure);
  } finally {
    await lease.release();
  }
};

const migrateHeld = async (options: MigrationOptions, ensureLease: () => Promise<void>): Promise<MigrationSummary> => {
  const { from, to, onProgress } = options;
  const pageSize = options.pageSize ?? 500;
  const names = migrationNames(from.name);
  const mismatches = mismatchLog();
  let targetListing: Promise<Map<string, StreamInfo> | null> | undefined;
  const context: PrefixContext = {
    to,
    names,
    mismatches,
    checked: new Set(),
    targetStreams: () =>
      (targetListing ??= listing(to).then((infos) => (infos ? new Map(infos.map((info) => [info.name, info])) : null))),
  };

  const resumedAfter = await readMigrationCheckpoint(to, names, (each) => each.position);
  let position = resumedAfter;
  let cursor: bigint | 'start' = resumedAfter === null ? 'start' : resumedAfter + 1n;
  // EventStoreDB keeps deleted streams' events in $all until a scavenge: they are not copied as live.
  const live = liveEventFilter(from);
  let eventsRead = 0;
  let eventsCopied = 0;
  let complete = false;
  for (let pages = 0; options.maxPages === undefined || pages < options.maxPages; pages += 1) {
    const page = await from.readAll({ fromPosition: cursor, maxCount: pageSize });
    await ensureLease();
    const kept = (await live.keep(page)).filter((event) => event.streamName !== LEASE_STREAM);
    for (const run of runsOf(kept)) eventsCopied += await copyRun(context, run.stream, run.events);
    eventsRead += page.length;
    const last = page[page.length - 1];
    if (last) {
      position = last.position;
      await to.storeCheckpoint(names.position, position);
      cursor = position + 1n;
    }
    onProgress?.({ phase: 'copy', done: eventsRead });
    if (page.length < pageSize) {
      complete = true;
      break;
    }
  }
  const summary: MigrationSummary = {
    ok: false,
    resumedAfter,
    position,
    eventsRead,
    eventsCopied,
    eventsOfDeletedStreams: live.deleted(),
    complete,
    streams: 0,
    softDeleted: 0,
    tombstoned: 0,
    verified: 0,
    mismatches: [],
    sourceChainBreaks: [],
  };
  if (!complete) {
    summary.mismatches = mismatches.list();
    return summary;
  }

  const infos = await listing(from);
  const deleted = (infos ?? []).filter(isDeleted);
  for (const [index, info] of deleted.entries()) {
    await ensureLease();
    if (await carryDeletion(context, info)) {
      if (info.tombstoned) summary.tombstoned += 1;
      else summary.softDeleted += 1;
    }
    onProgress?.({ phase: 'deletions', done: index + 1, total: deleted.length });
  }

  const liveNames = infos ? infos.filter((info) => !isDeleted(info)).map((info) => info.name) : (await liveStreamNames(from)).names.filter((name) => name !== LEASE_STREAM);
  const all = [...liveNames, ...deleted.map((info) => info.name)];
  summary.streams = all.length;
  for (const [index, stream] of all.entries()) {
    if (await verifyStream(from, to, stream, mismatches, summary.sourceChainBreaks)) summary.verified += 1;
    onProgress?.({ phase: 'verify', done: index + 1, total: all.length });
  }
  summary.mismatches = mismatches.list();
  summary.ok = summary.mismatches.length === 0 && summary.verified === summary.streams;
  return summary;
};
