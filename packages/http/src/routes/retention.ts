import {
  checkExportView,
  checkFormat,
  checkLineage,
  deleteSession,
  exportSession,
  parseRoles,
  type ExportFormat,
} from '@session-ledger/retention';
import type { Route } from '../types.js';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  markdown: 'text/markdown; charset=utf-8',
  qmd: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

const EXTENSIONS: Record<ExportFormat, string> = { markdown: 'md', qmd: 'qmd', html: 'html', jsonl: 'jsonl' };

/** Export (a download naming its digest) and deletion fenced by If-Match. */
export const retentionRoutes: Route[] = [
  {
    method: 'GET',
    path: '/sessions/:id/export',
    handler: async ({ store, params, query, res, now }) => {
      const format = checkFormat(query.get('format') ?? 'markdown');
      const view = query.get('view');
      const only = query.get('only');
      const result = await exportSession(store, params.id!, {
        format,
        view: view === null ? undefined : checkExportView(view),
        lineage: checkLineage(query.get('lineage') ?? 'logical'),
        only: only === null ? undefined : parseRoles(only),
        now: now(),
      });
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[format],
        'content-disposition': `attachment; filename="${params.id!}.${EXTENSIONS[format]}"`,
        'x-export-digest': result.digest,
      });
      res.end(result.bytes);
      return null;
    },
  },
  {
    method: 'DELETE',
    path: '/sessions/:id',
    handler: async ({ ledger, params, query, req, now }) => {
      const ifMatch = req.headers['if-match'];
      if (ifMatch === undefined) {
        return {
          status: 428,
          body: { error: { type: 'precondition_required', message: 'DELETE needs If-Match: the ETag of the view you saw (GET /sessions/:id), or * for whatever is current' } },
        };
      }
      const result = await deleteSession(ledger, params.id!, { ifMatch, lineage: checkLineage(query.get('lineage') ?? 'logical'), now: now() });
      return { body: result };
    },
  },
];
