import type { JsonObject, JsonValue, RecordedEvent } from '@session-ledger/core';
import { replacedEvent } from '../mapping/replacedEvent.js';
import { correspondence } from './correspond.js';
import type { SyncEvent } from './syncStream.js';

/** What to append to a stream to bring it up to a plan, or why it cannot be. */
export type Reconciled = { kind: 'append'; events: SyncEvent[] } | { kind: 'conflict'; reason: string };

/** Events the import writes that a later Hermes rewrite can leave without a row in the source. */
const REPLACEABLE = new Set(['message.appended', 'history.compacted', 'history.rewound']);

const objectOf = (value: JsonValue | undefined): JsonObject | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;

const HERMES_MESSAGE_ID = /^hm-(\d+)$/;

/** The Hermes row ids an imported event carries: its message or summary id, and the rows its metadata names. */
const heldRows = (event: RecordedEvent): number[] => {
  const rows: number[] = [];
  const data = objectOf(event.data);
  for (const key of ['messageId', 'summaryId']) {
    const match = typeof data?.[key] === 'string' ? HERMES_MESSAGE_ID.exec(data[key] as string) : null;
    if (match) rows.push(Number(match[1]));
  }
  const hermes = objectOf(event.metadata.hermes);
  const listed = hermes?.rowIds;
  if (Array.isArray(listed)) for (const row of listed) if (typeof row === 'number') rows.push(row);
  return rows;
};

/** Message ids some held event took back. */
const rewoundIds = (held: readonly RecordedEvent[]): Set<string> => {
  const ids = new Set<string>();
  for (const event of held) {
    if (event.type !== 'history.rewound') continue;
    const listed = objectOf(event.data)?.messageIds;
    if (Array.isArray(listed)) for (const id of listed) if (typeof id === 'string') ids.add(id);
  }
  return ids;
};

/** Rewinds the import plans since session 28: of an archived row a later row repeats, of a gateway's transcript header. */
const LATER_REWINDS = new Set(['carried_over', 'session-meta']);

/**
 * A plan event that may stand later than planned: one of LATER_REWINDS. A session imported before
 * holds the message without it; the rewind is appended at the end, and the views are the same.
 */
const deferrable = (item: SyncEvent): boolean => item.kind === 'rewind' && LATER_REWINDS.has((item.event.data as { reason?: string }).reason ?? '');

const newerThan = (n: number) => `the ledger holds ${n} event(s) after what this file has for the session (written since, or from a newer copy)`;

/**
 * What a stream needs to follow the plan of its session (the plan's events are in `planned`).
 *
 * The events the stream holds that the plan has must be the plan's first ones, in its order; the
 * rest of the plan is appended. A stream that also holds events the plan lacks is in one of two
 * states:
 * - Hermes rewrote the transcript since the last import (`replace_messages`: the rows are deleted
 *   and the kept ones inserted again under new, higher row ids, AUTOINCREMENT). Then those events
 *   were written by this import, they carry only rows older than every row the plan adds, and the
 *   plan adds some: the messages among them that are still shown are rewound (`replacedEvent`) and
 *   the plan's new events follow. Such events before the last of the plan's are ones an earlier run
 *   retired that way.
 *   A compression segment's start, its summary message and its parent's continuation keep what
 *   the ledger holds (`correspondence`).
 * - Anything else (written by someone else since, imported from a newer copy, a row changed in
 *   place): a conflict; the ledger is left as it is.
 */
export const reconcile = (stream: string, held: readonly RecordedEvent[], planned: readonly SyncEvent[]): Reconciled => {
  const place = new Map<string, number>();
  planned.forEach((item, index) => place.set(item.event.id, index));
  const same = correspondence(planned);
  let matched = 0;
  let lastMatched = -1;
  const extra: number[] = [];
  /** Plan events a stream imported before they were planned lacks in their place: appended at the end. */
  const deferred = new Set<number>();
  for (let index = 0; index < held.length; index += 1) {
    const at = place.get(held[index]!.id) ?? same.of(held[index]!, matched);
    if (at === undefined) {
      extra.push(index);
      continue;
    }
    if (at > matched && planned.slice(matched, at).every(deferrable)) for (let skipped = matched; skipped < at; skipped += 1) deferred.add(skipped);
    else if (at < matched && deferred.delete(at)) continue;
    else if (at !== matched) {
      return { kind: 'conflict', reason: `the source differs from what was imported before at event ${matched} (${planned[matched]!.kind}); the ledger is left as it is` };
    }
    matched = at + 1;
    lastMatched = index;
  }
  const rest = same.renamed([...[...deferred].map((index) => planned[index]!), ...planned.slice(matched)]);
  const tail = extra.filter((index) => index > lastMatched).map((index) => held[index]!);
  if (tail.length === 0) return { kind: 'append', events: rest };
  if (rest.length === 0 || tail.some((event) => event.metadata.importedFrom !== 'hermes' || !REPLACEABLE.has(event.type))) {
    return { kind: 'conflict', reason: newerThan(tail.length) };
  }
  // A row changed in place keeps its id (a new event for the same row): not a rewrite.
  let oldest = Number.POSITIVE_INFINITY;
  for (const item of rest) for (const row of item.event.rowIds) oldest = Math.min(oldest, row);
  if (tail.some((event) => heldRows(event).some((row) => row >= oldest))) return { kind: 'conflict', reason: newerThan(tail.length) };
  const gone = rewoundIds(held);
  const shown: string[] = [];
  const rows: number[] = [];
  for (const event of tail) {
    const messageId = event.type === 'message.appended' ? objectOf(event.data)?.messageId : undefined;
    if (typeof messageId === 'string' && !gone.has(messageId)) {
      shown.push(messageId);
      rows.push(...heldRows(event));
    }
  }
  if (shown.length === 0) return { kind: 'append', events: rest };
  const first = rest.find((item) => item.event.type === 'message.appended')?.event.data as { timestamp?: string } | undefined;
  const started = planned[0]?.event.data as { startedAt?: string } | undefined;
  const at = first?.timestamp ?? started?.startedAt ?? new Date(0).toISOString();
  return { kind: 'append', events: [{ kind: 'replaced', event: replacedEvent(stream, shown, rows, at) }, ...rest] };
};
