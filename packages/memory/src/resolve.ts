import { deterministicId, ledgerError, LedgerError } from '@session-ledger/core';
import * as E from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { usedChars, type Budgets } from './budgets.js';
import { MEMORY_TARGETS, type MemoryEvent, type MemoryTarget } from '@session-ledger/events';
import type { MemoryOperation, Receipt } from './operations.js';
import type { MemoryEntry } from '@session-ledger/projections';
import { entryById, selectEntry } from './select.js';
import { cleanContent, cleanSelector } from './validate.js';
import { tooManyOperations } from './batchSchema.js';

export interface ResolveContext {
  stream: string;
  /** The revision the entries were read at (-1n: no stream); part of every new entry's id. */
  baseRevision: bigint;
  /** The batch's UUID (recorded in each event's metadata as batch.id); part of every new entry's id. */
  batchId: string;
  budgets: Budgets;
}

export interface Resolution {
  events: MemoryEvent[];
  receipts: Receipt[];
  /** The state the batch leaves, in the order the reducer would produce. */
  entries: MemoryEntry[];
}

const duplicateOf = (
  entries: readonly MemoryEntry[],
  target: MemoryTarget,
  content: string,
  except?: string,
): E.Either<LedgerError, string> =>
  entries.some((entry) => entry.target === target && entry.content === content && entry.id !== except)
    ? E.left(ledgerError('duplicate', `The ${target} entry already exists: ${content}`, { what: content }))
    : E.right(content);

/** One operation against the working set the operations before it left. */
const step = (ctx: ResolveContext, state: Resolution, op: MemoryOperation, index: number): E.Either<LedgerError, Resolution> => {
  const where = `operation ${index + 1} (${op.op})`;
  const prefix = (error: LedgerError) =>
    error.message.startsWith('operation ') ? error : new LedgerError(error.type, `${where}: ${error.message}`, error.details);
  if (op.op === 'add') {
    return pipe(
      cleanContent(op.content, where),
      E.chain((content) => duplicateOf(state.entries, op.target, content)),
      E.map((content) => {
        const entryId = deterministicId('memory-entry', ctx.stream, ctx.baseRevision, ctx.batchId, index);
        return {
          events: [...state.events, { type: 'memory.entry_added' as const, data: { entryId, target: op.target, content } }],
          receipts: [...state.receipts, { op: 'add' as const, entryId, target: op.target, previousContent: null, content, selector: null }],
          entries: [...state.entries, { id: entryId, target: op.target, content }],
        };
      }),
      E.mapLeft(prefix),
    );
  }
  const chosen: E.Either<LedgerError, { selector: string | null; entry: MemoryEntry }> =
    op.entryId !== undefined
      ? pipe(entryById(state.entries, op.target, op.entryId), E.map((entry) => ({ selector: null, entry })))
      : pipe(
          cleanSelector(op.old, where),
          E.chain((selector) => pipe(selectEntry(state.entries, op.target, selector), E.map((entry) => ({ selector, entry })))),
        );
  return pipe(
    chosen,
    E.chain(({ selector, entry }): E.Either<LedgerError, Resolution> => {
      const { id: entryId, content: previousContent } = entry;
      // An entry chosen by its id has no selector: the event says so by leaving it out.
      const asked = selector === null ? {} : { selector };
      if (op.op === 'remove') {
        return E.right({
          events: [...state.events, { type: 'memory.entry_removed' as const, data: { entryId, target: op.target, previousContent, ...asked } }],
          receipts: [...state.receipts, { op: 'remove' as const, entryId, target: op.target, previousContent, content: null, selector }],
          entries: state.entries.filter((candidate) => candidate.id !== entryId),
        });
      }
      return pipe(
        cleanContent(op.content, where),
        E.chain((content) => duplicateOf(state.entries, op.target, content, entryId)),
        E.map((content) => ({
          events: [
            ...state.events,
            { type: 'memory.entry_replaced' as const, data: { entryId, target: op.target, previousContent, content, ...asked } },
          ],
          receipts: [...state.receipts, { op: 'replace' as const, entryId, target: op.target, previousContent, content, selector }],
          entries: state.entries.map((candidate) => (candidate.id === entryId ? { ...candidate, content } : candidate)),
        })),
      );
    }),
    E.mapLeft(prefix),
  );
};

/** Budgets hold on the final state; a target may stay over budget only if the batch does not grow it. */
const checkBudgets =
  (ctx: ResolveContext, before: readonly MemoryEntry[]) =>
  (result: Resolution): E.Either<LedgerError, Resolution> => {
  for (const target of MEMORY_TARGETS) {
    const used = usedChars(result.entries, target);
    const limit = ctx.budgets[target];
    if (used > limit && used > usedChars(before, target)) {
      return E.left(
        ledgerError('over_budget', `The batch would leave ${target} at ${used}/${limit} characters`, { target, limit, used }),
      );
    }
  }
  return E.right(result);
};

/**
 * Resolves an ordered batch against one read state: each operation sees the state the ones
 * before it left, so every receipt's previous content is the entry as it was at that point.
 * Pure: the caller commits `events` as one append conditional on `ctx.baseRevision`.
 */
export const resolveBatch = (
  entries: readonly MemoryEntry[],
  operations: readonly MemoryOperation[],
  ctx: ResolveContext,
): E.Either<LedgerError, Resolution> => {
  if (operations.length === 0) return E.left(ledgerError('invalid_input', 'Malformed batch: the batch is empty', { field: 'batch' }));
  const tooMany = tooManyOperations(operations.length);
  if (tooMany !== null) return E.left(ledgerError('invalid_input', tooMany, { field: 'batch' }));
  let state: E.Either<LedgerError, Resolution> = E.right({ events: [], receipts: [], entries: [...entries] });
  operations.forEach((op, index) => {
    state = pipe(state, E.chain((current) => step(ctx, current, op, index)));
  });
  return pipe(state, E.chain(checkBudgets(ctx, entries)));
};
