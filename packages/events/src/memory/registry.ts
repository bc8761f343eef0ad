import type { EventSchemas } from '../session/registry.js';
import { entryAddedV1, entryRemovedV1, entryReplacedV1 } from './schemas.js';
import type { MemoryEventType } from './types.js';

/** Every memory event type, its current version, and how older versions are read. */
export const MEMORY_SCHEMAS: Record<MemoryEventType, EventSchemas> = {
  'memory.entry_added': { current: 1, versions: [{ schema: entryAddedV1 }] },
  'memory.entry_replaced': { current: 1, versions: [{ schema: entryReplacedV1 }] },
  'memory.entry_removed': { current: 1, versions: [{ schema: entryRemovedV1 }] },
};
