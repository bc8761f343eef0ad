import { hashOf, readStreamState, readWholeStream, verifyStreamChain, type EventStore, type RecordedEvent } from '@session-ledger/core';
import type { MismatchLog } from './mismatches.js';
import type { SourceChainBreak } from './types.js';

type Ends = { kind: 'live'; first: RecordedEvent; last: RecordedEvent } | { kind: 'missing' } | { kind: 'tombstoned' };

const endsOf = async (store: EventStore, stream: string): Promise<Ends> => {
  const head = await readStreamState(store, stream, { maxCount: 1 });
  if (head.state === 'tombstoned') return { kind: 'tombstoned' };
  const tail = head.state === 'live' ? await readStreamState(store, stream, { direction: 'backwards', maxCount: 1 }) : head;
  if (tail.state === 'tombstoned') return { kind: 'tombstoned' };
  const [first, last] = [head.state === 'live' ? head.events[0] : undefined, tail.state === 'live' ? tail.events[0] : undefined];
  return first && last ? { kind: 'live', first, last } : { kind: 'missing' };
};

const describe = (ends: Ends): string =>
  ends.kind === 'live' ? `revisions ${ends.first.revision}..${ends.last.revision}, head ${hashOf(ends.last) ?? ends.last.id}` : ends.kind;

/**
 * One stream, source against target: the same first and last revision, the same last event and
 * chain head; for a hash-chained stream the target's whole chain is recomputed too (a break the
 * source has too is listed in `sourceBreaks`, not failed). A deleted source stream must be deleted
 * the same way in the target.
 */
export const verifyStream = async (
  from: EventStore,
  to: EventStore,
  stream: string,
  mismatches: MismatchLog,
  sourceBreaks: SourceChainBreak[],
): Promise<boolean> => {
  const [source, target] = await Promise.all([endsOf(from, stream), endsOf(to, stream)]);
  const fail = (reason: string) => {
    mismatches.report(stream, reason, describe(source), describe(target));
    return false;
  };
  if (source.kind !== 'live') return target.kind === source.kind || fail(`the stream is ${source.kind} in the source, not in the target`);
  if (target.kind !== 'live') return fail('the stream is missing or deleted in the target');
  if (source.first.revision !== target.first.revision) return fail('first revisions differ');
  if (source.last.revision !== target.last.revision) return fail('revisions differ');
  if (source.last.id !== target.last.id) return fail('last events differ');
  if (hashOf(source.last) !== hashOf(target.last)) return fail('chain heads differ');
  if (hashOf(target.last) !== null) {
    // The copy's chain is recomputed; a break the source has too is the source's, not the copy's.
    const broken = verifyStreamChain(await readWholeStream(to, stream));
    if (broken) {
      const original = verifyStreamChain(await readWholeStream(from, stream));
      if (!original || original.revision !== broken.revision || original.reason !== broken.reason) {
        return fail(`the target chain breaks at revision ${broken.revision} (${broken.reason})`);
      }
      sourceBreaks.push({ stream, revision: broken.revision, reason: broken.reason });
    }
  }
  return true;
};
