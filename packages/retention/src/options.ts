import { invalidInput } from '@session-ledger/core';
import { parseRoles as parseSharedRoles, ROLES, type Role } from '@session-ledger/events';
import { EXPORT_VIEWS, FORMATS, LINEAGES, type ExportFormat, type ExportOptions, type ExportView, type Lineage } from './types.js';

const oneOf = <T extends string>(field: string, choices: readonly T[], value: unknown): T => {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw invalidInput(`${field} must be one of ${choices.join(', ')}: ${JSON.stringify(value)}`, field);
  }
  return value as T;
};

export const checkFormat = (value: unknown): ExportFormat => oneOf('format', FORMATS, value);
export const checkLineage = (value: unknown): Lineage => oneOf('lineage', LINEAGES, value);
export const checkExportView = (value: unknown): ExportView => oneOf('view', EXPORT_VIEWS, value);

/** `user,assistant`: roles separated by commas (the one parser shared by the CLI's `--only` and HTTP's `only`). */
export const parseRoles = (text: string): Role[] => parseSharedRoles('only', text);

/** The options an export runs with, checked together (jsonl is raw; --only filters display exports). */
export interface ResolvedExport {
  format: ExportFormat;
  view: ExportView;
  lineage: Lineage;
  only: Role[] | null;
  now: Date;
}

export const resolveExport = (options: ExportOptions): ResolvedExport => {
  const format = checkFormat(options.format);
  const view = options.view === undefined ? (format === 'jsonl' ? 'raw' : 'display') : checkExportView(options.view);
  const lineage = options.lineage === undefined ? 'logical' : checkLineage(options.lineage);
  if (format === 'jsonl' && view !== 'raw') throw invalidInput('jsonl is the lossless raw export: use the raw view (or markdown, html, qmd for the display view)', 'view');
  const only = options.only === undefined || options.only === null ? null : options.only.map((role) => oneOf('only', ROLES, role));
  if (only !== null && only.length === 0) throw invalidInput('only needs at least one role', 'only');
  if (only !== null && view === 'raw') throw invalidInput('only filters the display view; a raw export is always whole', 'only');
  return { format, view, lineage, only, now: options.now ?? new Date() };
};
