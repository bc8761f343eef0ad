import { invalidInput } from '@session-ledger/core';
import { z } from 'zod';
import { memoryTarget } from '@session-ledger/events';
import type { MemoryOperation } from './operations.js';

const text = z.string();

/** The batch file format: [{"op", "target", "content"?, "old"?}, ...]. */
export const batchSchema = z
  .array(
    z.discriminatedUnion('op', [
      z.strictObject({ op: z.literal('add'), target: memoryTarget, content: text }),
      z.strictObject({ op: z.literal('replace'), target: memoryTarget, old: text, content: text }),
      z.strictObject({ op: z.literal('remove'), target: memoryTarget, old: text }),
    ]),
  )
  .min(1, 'the batch is empty');

/** Validates an untrusted batch; throws invalid_input naming the first bad operation. */
export const parseBatch = (input: unknown): MemoryOperation[] => {
  const parsed = batchSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const [index, field] = issue.path;
  const where = typeof index === 'number' ? `operation ${index + 1}${field === undefined ? '' : ` field "${String(field)}"`}: ` : '';
  throw invalidInput(`Malformed batch: ${where}${issue.message}`, field === undefined ? 'batch' : String(field));
};
