import { createHash } from 'node:crypto';
import { canonicalJson } from '@session-ledger/core';
import type { ExportContent } from './content.js';

/**
 * An array-index key written as an object key: `{"9":` or `,"10":`. Inside a JSON string a quote is
 * always escaped (`\"`), so this matches real keys only. JavaScript lists such keys first, in numeric
 * order, whatever order they were added in: an object holding one cannot be kept in canonical order.
 */
const INDEX_KEY = /[{,]"(?:0|[1-9]\d*)":/;

/**
 * The content identity of an export: `sha256:` of the canonical JSON of the view as exported (core's
 * `digestOf`). The content is built with its keys in canonical order, so JSON.stringify gives that
 * canonical JSON at native speed; where user JSON has numeric keys ("10" sorts before "9"), the text is
 * encoded again by the canonical encoder. Any appended, rewritten, compacted or removed message changes
 * it, whatever the count.
 */
export const contentDigest = (content: ExportContent): string => {
  const canonical = content.view === 'display' ? { conversations: content.conversations, only: content.only, view: 'display' } : { events: content.events, view: 'raw' };
  const fast = JSON.stringify(canonical);
  const text = INDEX_KEY.test(fast) ? canonicalJson(canonical) : fast;
  return `sha256:${createHash('sha256').update(text).digest('hex')}`;
};
