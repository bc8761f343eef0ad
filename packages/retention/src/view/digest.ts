import { digestOf } from '@session-ledger/core';
import type { ExportContent } from './content.js';

/**
 * The content identity of an export: `sha256:` of the canonical JSON of the view as exported.
 * Any appended, rewritten, compacted or removed message changes it, whatever the count.
 */
export const contentDigest = (content: ExportContent): string =>
  digestOf(content.view === 'display' ? { view: 'display', only: content.only, conversations: content.conversations } : { view: 'raw', events: content.events });
