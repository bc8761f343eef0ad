import type { MemoryTarget } from '@session-ledger/events';
import type { MemoryEntry } from '@session-ledger/projections';

declare module '@session-ledger/core' {
  /** The memory module's error code: a batch would leave a target over its character budget. */
  interface ErrorDetails {
    over_budget: { target: string; limit: number; used: number };
  }
}


export type Budgets = Record<MemoryTarget, number>;

/** Hermes' defaults: characters per target. */
export const DEFAULT_BUDGETS: Budgets = { memory: 2200, user: 1375 };

/** How the target's file is laid out: entries joined by a line holding only §. */
export const ENTRY_DELIMITER = '\n§\n';

/** Characters (code points) the target uses when rendered, as Hermes counts them. */
export const usedChars = (entries: readonly MemoryEntry[], target: MemoryTarget): number => {
  const contents = entries.filter((entry) => entry.target === target).map((entry) => entry.content);
  return contents.length === 0 ? 0 : [...contents.join(ENTRY_DELIMITER)].length;
};
