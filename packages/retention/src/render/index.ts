import { invalidInput } from '@session-ledger/core';
import type { Manifest } from '../manifest.js';
import type { ExportContent } from '../view/content.js';
import { manifestFromFrontMatter } from './frontMatter.js';
import { MANIFEST_SCRIPT_ID, renderHtml } from './html.js';
import { renderJsonl } from './jsonl.js';
import { renderMarkdown } from './markdown.js';
import { renderQmd } from './qmd.js';

/** A text format's document, refused in words (not an internal error) past the longest string V8 makes. */
const asBytes = (manifest: Manifest, render: () => string): Buffer => {
  let text: string;
  try {
    text = render();
  } catch (error) {
    if (!(error instanceof RangeError) || !/string length/i.test(error.message)) throw error;
    throw invalidInput(`The conversation is too large to render as one ${manifest.format} document (over 512 MiB of text); export it as jsonl, which has no such limit`, 'format');
  }
  return Buffer.from(text, 'utf8');
};

/** The export's bytes, in the manifest's format. */
export const renderExport = (content: ExportContent, manifest: Manifest): Buffer => {
  switch (manifest.format) {
    case 'markdown':
      return asBytes(manifest, () => renderMarkdown(content, manifest));
    case 'qmd':
      return asBytes(manifest, () => renderQmd(content, manifest));
    case 'html':
      return asBytes(manifest, () => renderHtml(content, manifest));
    case 'jsonl':
      if (content.view !== 'raw') throw invalidInput('jsonl carries the raw view', 'view');
      return renderJsonl(content, manifest);
  }
};

const fromHtml = (text: string): Manifest => {
  const open = `<script type="application/json" id="${MANIFEST_SCRIPT_ID}">`;
  const start = text.indexOf(open);
  const end = start < 0 ? -1 : text.indexOf('</script>', start);
  if (end < 0) throw invalidInput('Not a session-ledger export: no manifest script element', 'file');
  return JSON.parse(text.slice(start + open.length, end)) as Manifest;
};

const fromJsonl = (text: string): Manifest => {
  const end = text.indexOf('\n');
  const manifest = JSON.parse(end < 0 ? text : text.slice(0, end)) as Manifest;
  if (manifest?.kind !== 'manifest') throw invalidInput('Not a session-ledger export: the first line is not a manifest', 'file');
  return manifest;
};

/** Reads the manifest an export file declares (for the read-back check and for import). */
export const manifestOf = (format: Manifest['format'], text: string): Manifest => {
  try {
    if (format === 'html') return fromHtml(text);
    if (format === 'jsonl') return fromJsonl(text);
    return manifestFromFrontMatter(text);
  } catch (error) {
    if (error instanceof SyntaxError) throw invalidInput(`Not a session-ledger export: unreadable manifest (${error.message})`, 'file');
    throw error;
  }
};
