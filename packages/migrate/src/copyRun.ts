import { appendChunks, eventBytes, isLedgerError, type AppendResult, type EventData, type RecordedEvent } from '@session-ledger/core';
import { finishInterruptedPrefix, rebuildDeletedPrefix, type PrefixContext } from './prefix.js';

const asEventData = (event: RecordedEvent): EventData => ({
  id: event.id,
  type: event.type,
  data: event.data,
  metadata: event.metadata,
});

/**
 * Appends one run of a stream's consecutive events with the source's revisions as expected
 * revisions, metadata (and so the hash chain) unchanged. A run the target already holds (an
 * interrupted copy resumed) is recognised by its event ids and written only from where the
 * target stops; a run after a soft-deleted prefix first rebuilds that prefix. Anything else
 * the target holds is reported, never overwritten. Returns how many events the target now has
 * from this run.
 */
/**
 * EventStoreDB keeps stream names and event types beginning with `$` for its own (system streams and
 * events, which `$all`'s readers skip): copied there, such an event would not come back. The raw
 * surfaces refuse them since; a source written before may hold some. The adapter names itself so.
 */
const reservedOnTarget = (context: PrefixContext, stream: string, run: RecordedEvent[]): boolean =>
  context.to.name.startsWith('eventstoredb:') && (stream.startsWith('$') || run.some((event) => event.type.startsWith('$')));

export const copyRun = async (context: PrefixContext, stream: string, run: RecordedEvent[]): Promise<number> => {
  const { to, mismatches } = context;
  if (mismatches.has(stream) || run.length === 0) return 0;
  if (reservedOnTarget(context, stream, run)) {
    const type = run.find((event) => event.type.startsWith('$'))?.type;
    mismatches.report(stream, "EventStoreDB keeps names beginning with $ for its own: not copied", type === undefined ? `stream ${stream}` : `event type ${type}`, 'not copied');
    return 0;
  }
  const first = run[0]!.revision;
  const last = run[run.length - 1]!.revision;
  const landed = (result: AppendResult, expected: bigint) => {
    if (result.nextExpectedRevision === expected) return true;
    mismatches.report(stream, 'the copy landed at other revisions', `revision ${expected}`, `revision ${result.nextExpectedRevision}`);
    return false;
  };
  try {
    if (first > 0n) await finishInterruptedPrefix(context, stream);
    try {
      const result = await to.appendToStream(stream, run.map(asEventData), { expectedRevision: first === 0n ? 'no_stream' : first - 1n });
      return landed(result, last) ? run.length : 0;
    } catch (error) {
      if (!isLedgerError(error, 'wrong_expected_version')) throw error;
      const actual = error.details.actual;
      if (actual === 'no_stream') {
        if (first === 0n || !(await rebuildDeletedPrefix(context, stream, first - 1n))) {
          if (first === 0n) mismatches.report(stream, 'the target refused the first events', 'no stream', 'no stream');
          return 0;
        }
        const result = await to.appendToStream(stream, run.map(asEventData), { expectedRevision: 'no_stream' });
        return landed(result, last) ? run.length : 0;
      }
      const current = BigInt(actual);
      if (current < first) {
        mismatches.report(stream, 'the target stream ends before the source continues', `continues at ${first}`, `ends at ${current}`);
        return 0;
      }
      const upTo = current < last ? current : last;
      const present = await to.readStream(stream, { fromRevision: first, maxCount: Number(upTo - first + 1n) });
      const differs = present.findIndex((event, index) => event.id !== run[index]!.id || event.revision !== run[index]!.revision);
      if (differs >= 0 || present.length !== Number(upTo - first + 1n)) {
        const at = present[differs] ?? present[present.length - 1];
        mismatches.report(stream, 'the target holds other events at these revisions', `event ${run[Math.max(differs, 0)]!.id}`, `event ${at?.id ?? 'none'}`);
        return 0;
      }
      const rest = run.filter((event) => event.revision > current);
      if (rest.length === 0) return run.length;
      const result = await to.appendToStream(stream, rest.map(asEventData), { expectedRevision: current });
      return landed(result, last) ? run.length : 0;
    }
  } catch (error) {
    if (isLedgerError(error, 'stream_deleted')) {
      mismatches.report(stream, 'the target stream is tombstoned', `live up to ${last}`, 'tombstoned');
      return 0;
    }
    if (isLedgerError(error, 'wrong_expected_version')) {
      mismatches.report(stream, 'the target stream changed during the copy', `revision ${first}`, error.details.actual);
      return 0;
    }
    // E.g. a lone surrogate an older store kept: the target cannot hold it as is, and a repaired copy would break its hash.
    if (isLedgerError(error, 'invalid_input')) {
      mismatches.report(stream, `the target refused revisions ${first}..${last}: ${error.message}`, `revisions ${first}..${last}`, 'refused');
      return 0;
    }
    throw error;
  }
};

/** Splits a page of $all into runs of consecutive events of one stream, keeping $all order. */
export const runsOf = (page: RecordedEvent[]): Array<{ stream: string; events: RecordedEvent[] }> => {
  const runs: Array<{ stream: string; events: RecordedEvent[] }> = [];
  for (const event of page) {
    const current = runs[runs.length - 1];
    if (current && current.stream === event.streamName) current.events.push(event);
    else runs.push({ stream: event.streamName, events: [event] });
  }
  // Each run is one append: bounded in bytes too, or EventStoreDB (1 MiB a write by default) refused it (appendChunks.ts).
  return runs.flatMap((run) => appendChunks(run.events, eventBytes, run.events.length).map((events) => ({ stream: run.stream, events })));
};
