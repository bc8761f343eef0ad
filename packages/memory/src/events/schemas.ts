import { z } from 'zod';
import { MEMORY_TARGETS } from './types.js';

export const memoryTargetSchema = z.enum(MEMORY_TARGETS);

const base = {
  v: z.literal(1),
  entryId: z.string().min(1),
  target: memoryTargetSchema,
};

export const entryAddedSchema = z.object({ ...base, content: z.string() });

export const entryReplacedSchema = z.object({
  ...base,
  previousContent: z.string().optional(),
  content: z.string(),
  selector: z.string().optional(),
});

export const entryRemovedSchema = z.object({
  ...base,
  previousContent: z.string().optional(),
  selector: z.string().optional(),
});

export const causationSchema = z.object({
  sessionId: z.string().min(1).optional(),
  turnId: z.string().min(1).optional(),
});
