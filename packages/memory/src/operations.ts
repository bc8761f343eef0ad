import type { MemoryTarget } from '@session-ledger/events';

/**
 * How a replace or remove names its entry: `old`, a selector (intent, never identity: resolved once,
 * by the store, against the profile as it is when the batch commits), or `entryId`, the entry's id
 * from a list or a receipt (identity: it takes that entry or none, so a retry or a stale read never
 * takes another one; outside test, session 34, helper-94 F4).
 */
export type EntryChoice = { old: string; entryId?: undefined } | { entryId: string; old?: undefined };

/** One requested mutation. */
export type MemoryOperation =
  | { op: 'add'; target: MemoryTarget; content: string }
  | ({ op: 'replace'; target: MemoryTarget; content: string } & EntryChoice)
  | ({ op: 'remove'; target: MemoryTarget } & EntryChoice);

export type MemoryOp = MemoryOperation['op'];

/** What the store committed for one operation; returned only after the append succeeded. */
export interface Receipt {
  op: MemoryOp;
  entryId: string;
  target: MemoryTarget;
  /** The full entry the store selected; null for an add. */
  previousContent: string | null;
  /** The entry's content afterwards; null for a remove. */
  content: string | null;
  /** The caller's selector; null for an add, and for an entry chosen by its id. */
  selector: string | null;
}
