import { invalidInput } from '@session-ledger/core';
import type { Manifest } from '../manifest.js';
import type { ExportContent } from '../view/content.js';
import { manifestFromFrontMatter } from './frontMatter.js';
import { MANIFEST_SCRIPT_ID, renderHtml } from './html.js';
import { renderJsonl } from './jsonl.js';
import { renderMarkdown } from './markdown.js';
import { renderQmd } from './qmd.js';

/** The export as text, in the manifest's format. */
export const renderExport = (content: ExportContent, manifest: Manifest): string => {
  switch (manifest.format) {
    case 'markdown':
      return renderMarkdown(content, manifest);
    case 'qmd':
      return renderQmd(content, manifest);
    case 'html':
      return renderHtml(content, manifest);
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
