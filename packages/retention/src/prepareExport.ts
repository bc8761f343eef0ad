import { sha256Hex } from '@session-ledger/core';
import type { Coverage } from './coverage/coverage.js';
import { buildManifest, type Manifest } from './manifest.js';
import type { ResolvedExport } from './options.js';
import { renderExport } from './render/index.js';
import type { ExportContent } from './view/content.js';
import { displayContent } from './view/displayContent.js';
import { rawContent } from './view/rawContent.js';

/** An export rendered in memory: its content (what the digest names), its manifest and its bytes. */
export interface PreparedExport {
  coverage: Coverage;
  content: ExportContent;
  manifest: Manifest;
  bytes: Buffer;
  /** sha256 (hex) of `bytes`: what the file must read back as. */
  sha256: string;
}

export const contentOf = (coverage: Coverage, options: Pick<ResolvedExport, 'view' | 'only'>): ExportContent =>
  options.view === 'raw' ? rawContent(coverage) : displayContent(coverage, options.only);

export const prepareExport = (coverage: Coverage, options: ResolvedExport): PreparedExport => {
  const content = contentOf(coverage, options);
  const manifest = buildManifest(coverage, content, options);
  const bytes = renderExport(content, manifest);
  return { coverage, content, manifest, bytes, sha256: sha256Hex(bytes) };
};
