import { invalidInput } from '@session-ledger/core';
import type { Manifest } from '../manifest.js';
import { inlineText } from './markdownText.js';

export const MANIFEST_KEY = 'session-ledger';

/**
 * A value as JSON (which YAML 1.2 reads as is), with < > & { } in its strings as \u escapes: no text-level pass
 * over the file (Quarto's shortcode scan, an HTML sniffer) finds markup in it; JSON.parse and YAML
 * read the same value back.
 */
const yamlValue = (value: unknown): string =>
  JSON.stringify(value).replace(/"(?:[^"\\]|\\.)*"/g, (string) =>
    string.replace(/[<>&{}]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );

/**
 * YAML front matter: a title, then the manifest under one key (so it never collides with a tool's
 * own keys, e.g. Quarto's `format`). Every value is written as JSON, which YAML 1.2 reads as is.
 */
export const frontMatter = (manifest: Manifest, extra: Record<string, string> = {}): string => {
  // pandoc and Quarto read metadata values as Markdown: the title and extras are escaped as text
  const lines = ['---', `title: ${yamlValue(inlineText(`Conversation ${manifest.rootId}`))}`];
  for (const [key, value] of Object.entries(extra)) lines.push(`${key}: ${yamlValue(inlineText(value))}`);
  lines.push(`${MANIFEST_KEY}:`);
  for (const [key, value] of Object.entries(manifest)) {
    if (value === undefined) continue;
    if (Array.isArray(value) && value.length > 0) {
      lines.push(`  ${key}:`);
      for (const item of value) lines.push(`    - ${yamlValue(item)}`);
    } else lines.push(`  ${key}: ${yamlValue(value)}`);
  }
  lines.push('---', '');
  return lines.join('\n');
};

const bad = (why: string) => invalidInput(`Not a session-ledger export: ${why}`, 'file');

/** Reads the manifest back from front matter this module wrote. */
export const manifestFromFrontMatter = (text: string): Manifest => {
  if (!text.startsWith('---\n')) throw bad('no front matter');
  const end = text.indexOf('\n---\n', 3);
  if (end < 0) throw bad('front matter is not closed');
  const lines = text.slice(4, end).split('\n');
  const start = lines.indexOf(`${MANIFEST_KEY}:`);
  if (start < 0) throw bad(`no ${MANIFEST_KEY} key in the front matter`);
  const manifest: Record<string, unknown> = {};
  let list: unknown[] | null = null;
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    try {
      if (line.startsWith('    - ') && list) list.push(JSON.parse(line.slice(6)));
      else {
        const match = /^ {2}([A-Za-z]+):(?: (.*))?$/.exec(line);
        if (!match) throw bad(`unexpected line ${JSON.stringify(line)}`);
        if (match[2] === undefined) manifest[match[1]!] = list = [];
        else (manifest[match[1]!] = JSON.parse(match[2])), (list = null);
      }
    } catch (error) {
      if (error instanceof SyntaxError) throw bad(`unreadable manifest line ${JSON.stringify(line)}`);
      throw error;
    }
  }
  return manifest as unknown as Manifest;
};
