import { invalidInput } from '@session-ledger/core';
import { z } from 'zod';
import { memoryEntryId, memoryTarget } from '@session-ledger/events';
import type { MemoryOperation } from './operations.js';

const text = z.string();

/**
 * The most operations one batch may hold. Default budgets fit fewer than 900 entries in all, and the
 * resolver's cost grows with the square of a batch: a `POST /memory/apply` of 32,000 operations held
 * `serve` for 105 s, one of 200,000 for over an hour, before its answer (outside test, session 25).
 */
export const MAX_BATCH_OPERATIONS = 1000;
/** Why a larger batch is refused, in the batch schema, the resolver and the HTTP body alike. */
export const TOO_MANY_OPERATIONS = `the batch holds more than ${MAX_BATCH_OPERATIONS} operations: split it`;

/** How a replace or remove names its entry: exactly one of the two (operations.ts, EntryChoice). */
const choice = { old: text.optional(), entryId: memoryEntryId.optional() };

/** Why a replace or remove names its entry wrongly, or null. */
export const choiceProblem = (op: { old?: unknown; entryId?: unknown }): string | null => {
  if (op.old !== undefined && op.entryId !== undefined) return 'give old (a selector) or entryId, not both';
  if (op.old === undefined && op.entryId === undefined) return 'old (a selector) or entryId is required';
  return null;
};

/** The batch file format: [{"op", "target", "content"?, "old"? | "entryId"?}, ...]. */
export const batchSchema = z
  .array(
    z.discriminatedUnion('op', [
      z.strictObject({ op: z.literal('add'), target: memoryTarget, content: text }),
      z.strictObject({ op: z.literal('replace'), target: memoryTarget, ...choice, content: text }),
      z.strictObject({ op: z.literal('remove'), target: memoryTarget, ...choice }),
    ]),
  )
  .min(1, 'the batch is empty')
  .max(MAX_BATCH_OPERATIONS, TOO_MANY_OPERATIONS)
  .superRefine((operations, context) => {
    operations.forEach((op, index) => {
      const problem = op.op === 'add' ? null : choiceProblem(op);
      if (problem !== null) context.addIssue({ code: 'custom', path: [index, 'old'], message: problem });
    });
  });

/** Validates an untrusted batch; throws invalid_input naming the first bad operation. */
export const parseBatch = (input: unknown): MemoryOperation[] => {
  const parsed = batchSchema.safeParse(input);
  if (parsed.success) return parsed.data as MemoryOperation[];
  const issue = parsed.error.issues[0]!;
  const [index, field] = issue.path;
  const where = typeof index === 'number' ? `operation ${index + 1}${field === undefined ? '' : ` field "${String(field)}"`}: ` : '';
  throw invalidInput(`Malformed batch: ${where}${issue.message}`, field === undefined ? 'batch' : String(field));
};

/** The same bound for a batch built in code (resolveBatch): every surface refuses it alike. */
export const tooManyOperations = (count: number): string | null => (count > MAX_BATCH_OPERATIONS ? `Malformed batch: ${TOO_MANY_OPERATIONS}` : null);
