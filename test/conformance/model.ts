import type { ExpectedRevision } from '@session-ledger/core';

/** A simple model of EventStoreDB's stream semantics, written independently of the adapters. */
export interface ModelStream {
  /** Ids by revision, including erased ones (undefined once erased). */
  ids: Array<string | undefined>;
  firstLive: number;
  tombstoned: boolean;
}

export type ModelOutcome =
  | { kind: 'written'; next: number }
  | { kind: 'idempotent'; next: number }
  | { kind: 'error'; type: 'wrong_expected_version' | 'stream_deleted'; actual?: string };

export const emptyStream = (): ModelStream => ({ ids: [], firstLive: 0, tombstoned: false });

const last = (s: ModelStream) => s.ids.length - 1;
const exists = (s: ModelStream) => last(s) >= s.firstLive;
export const actualOf = (s: ModelStream): string => (exists(s) ? String(last(s)) : 'no_stream');
const liveIdAt = (s: ModelStream, revision: number) => (revision >= s.firstLive ? s.ids[revision] : undefined);

/** Whole batch already at `start`: a retry. Some of it: a conflict. None: undefined. */
const overlapAt = (s: ModelStream, ids: string[], start: number): 'all' | 'some' | 'none' => {
  let matched = 0;
  while (matched < ids.length && liveIdAt(s, start + matched) === ids[matched]) matched += 1;
  return matched === ids.length ? 'all' : matched > 0 ? 'some' : 'none';
};

export const modelLiveIds = (s: ModelStream): string[] => s.ids.slice(s.firstLive).filter((id): id is string => id !== undefined);

export const modelAppend = (s: ModelStream, ids: string[], expected: ExpectedRevision): ModelOutcome => {
  if (s.tombstoned) return { kind: 'error', type: 'stream_deleted' };
  const conflict: ModelOutcome = { kind: 'error', type: 'wrong_expected_version', actual: actualOf(s) };
  const write = (): ModelOutcome => {
    s.ids.push(...ids);
    return { kind: 'written', next: last(s) };
  };
  const retry = (start: number): ModelOutcome | null => {
    const overlap = overlapAt(s, ids, start);
    if (overlap === 'all') return { kind: 'idempotent', next: start + ids.length - 1 };
    return overlap === 'some' ? conflict : null;
  };
  if (expected === 'any') {
    const at = s.ids.findIndex((id, revision) => id === ids[0] && revision >= s.firstLive);
    return at < 0 ? write() : (retry(at) ?? conflict);
  }
  if (expected === 'no_stream') {
    if (!exists(s)) return write();
    return (s.firstLive === 0 ? retry(0) : null) ?? conflict;
  }
  if (expected === 'stream_exists') return exists(s) ? write() : conflict;
  const current = exists(s) ? last(s) : -1;
  const wanted = Number(expected);
  if (wanted === current) return write();
  return (wanted < current ? retry(wanted + 1) : null) ?? conflict;
};

export const modelRemove = (s: ModelStream, expected: ExpectedRevision, tombstone: boolean): ModelOutcome | null => {
  if (s.tombstoned) return { kind: 'error', type: 'stream_deleted' };
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && !exists(s)) ||
    (expected === 'stream_exists' && exists(s)) ||
    (typeof expected === 'bigint' && exists(s) && Number(expected) === last(s));
  if (!ok) return { kind: 'error', type: 'wrong_expected_version', actual: actualOf(s) };
  s.ids = s.ids.map(() => undefined);
  s.firstLive = s.ids.length;
  s.tombstoned = tombstone;
  return null;
};

export const modelRead = (s: ModelStream): string[] | 'stream_deleted' | 'stream_not_found' =>
  s.tombstoned ? 'stream_deleted' : exists(s) ? modelLiveIds(s) : 'stream_not_found';
