import type { Manifest } from '../manifest.js';
import type { RawContent } from '../view/content.js';

/** jsonl: the manifest line, then one line per stored event (stream, id, type, revision, data, metadata with the hash chain). */
export const renderJsonl = (content: RawContent, manifest: Manifest): string => {
  const lines = [JSON.stringify(manifest)];
  for (const event of content.events) lines.push(JSON.stringify(event));
  return `${lines.join('\n')}\n`;
};
