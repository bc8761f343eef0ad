import type { Role } from '@session-ledger/events';

export const FORMATS = ['markdown', 'html', 'jsonl', 'qmd'] as const;
/** markdown, html, qmd: a transcript a person reads; jsonl: every raw event, lossless (importable). */
export type ExportFormat = (typeof FORMATS)[number];

export const EXPORT_VIEWS = ['display', 'raw'] as const;
/** display: the whole logical conversation as a person sees it (compacted history included); raw: every stored event. */
export type ExportView = (typeof EXPORT_VIEWS)[number];

export const LINEAGES = ['logical', 'tip'] as const;
/** logical: the compression chain root..tip and its delegated children (recursively); tip: the tip segment only. */
export type Lineage = (typeof LINEAGES)[number];

/** One stream an export covers, as it was when the export read it: what a conditional tombstone expects. */
export interface CoveredStream {
  stream: string;
  sessionId: string;
  revision: bigint;
  /** The hash-chain link of the stream's last event (null on an unchained stream). */
  chainHead: string | null;
}

/** Why streams were deleted, as the audit trail records it. */
export type DeletionReason = 'export' | 'delete' | 'prune';

/** The options every export takes. */
export interface ExportOptions {
  format: ExportFormat;
  /** Default: raw for jsonl, display for the others. */
  view?: ExportView;
  /** Default: logical. */
  lineage?: Lineage;
  /** Only these roles (a filtered export: it says so in its manifest and can never authorise a deletion). */
  only?: Role[];
  /** When the export was made (the manifest's exportedAt, the lease check); default: the system clock. */
  now?: Date;
  /** Called as the export advances: the phase and the count done (messages or events). */
  onProgress?: (phase: 'read' | 'render' | 'write' | 'verify' | 'delete', done: number, total: number) => void;
}
