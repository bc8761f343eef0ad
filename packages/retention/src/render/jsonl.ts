import type { Manifest } from '../manifest.js';
import type { RawContent } from '../view/content.js';

const NEWLINE = Buffer.from('\n');

/**
 * jsonl: the manifest line, then one line per stored event (stream, id, type, revision, data, metadata
 * with the hash chain), as bytes: a line at a time, never one string, which V8 caps at 512 MiB (a
 * conversation of 1.3 million messages was an internal error, "Invalid string length", and could never
 * be exported or deleted after a verified export: outside test, session 23).
 */
export const renderJsonl = (content: RawContent, manifest: Manifest): Buffer => {
  const parts = [Buffer.from(JSON.stringify(manifest)), NEWLINE];
  for (const event of content.events) parts.push(Buffer.from(JSON.stringify(event)), NEWLINE);
  return Buffer.concat(parts);
};
