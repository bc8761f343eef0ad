import { createHash } from 'node:crypto';
import type { ExportContent } from './content.js';

/**
 * The content identity of an export: `sha256:` of the canonical JSON of the view as exported (core's
 * `digestOf`). The content is built with its keys in canonical order, so JSON.stringify gives that
 * canonical JSON at native speed. Any appended, rewritten, compacted or removed message changes it,
 * whatever the count.
 */
export const contentDigest = (content: ExportContent): string => {
  const canonical = content.view === 'display' ? { conversations: content.conversations, only: content.only, view: 'display' } : { events: content.events, view: 'raw' };
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical)).digest('hex')}`;
};
