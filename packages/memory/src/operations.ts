import type { MemoryTarget } from '@session-ledger/events';

/** One requested mutation. `old` is the caller's selector: intent, never identity. */
export type MemoryOperation =
  | { op: 'add'; target: MemoryTarget; content: string }
  | { op: 'replace'; target: MemoryTarget; old: string; content: string }
  | { op: 'remove'; target: MemoryTarget; old: string };

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
  /** The caller's selector; null for an add. */
  selector: string | null;
}
