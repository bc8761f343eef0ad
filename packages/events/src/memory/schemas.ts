import { z } from 'zod';
import { MEMORY_TARGETS } from './types.js';

export const memoryTarget = z.enum(MEMORY_TARGETS);

/** Entry ids are UUIDs made by the memory ledger (or kept from an import). */
export const memoryEntryId = z.string().min(1).max(200);
const entryId = memoryEntryId;

/** memory.entry_added v1: a new entry, appended to its target. */
export const entryAddedV1 = z.strictObject({ entryId, target: memoryTarget, content: z.string() });

/**
 * memory.entry_replaced v1: `previousContent` is the full entry the authoritative store selected
 * (identity); `selector` is the caller's text (intent only). Imported legacy data may lack both:
 * such an event is never mirrored destructively.
 */
export const entryReplacedV1 = z.strictObject({
  entryId,
  target: memoryTarget,
  previousContent: z.string().optional(),
  content: z.string(),
  selector: z.string().optional(),
});

/** memory.entry_removed v1: same identity rules as a replace. */
export const entryRemovedV1 = z.strictObject({
  entryId,
  target: memoryTarget,
  previousContent: z.string().optional(),
  selector: z.string().optional(),
});

/** metadata.causation of a memory event: the session and turn that caused it, if any. */
export const causationV1 = z.object({
  sessionId: z.string().min(1).optional(),
  turnId: z.string().min(1).optional(),
});
