import { deleteSession, EXPORT_VIEWS, exportSession, FORMATS, LINEAGES, parseRoles, reviewDeletion, type ExportFormat } from '@session-ledger/retention';
import { z } from 'zod';
import * as R from '../contract/responses.js';
import { httpProblem } from '../problem.js';
import { route, type Route } from '../types.js';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  markdown: 'text/markdown; charset=utf-8',
  qmd: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

const EXTENSIONS: Record<ExportFormat, string> = { markdown: 'md', qmd: 'qmd', html: 'html', jsonl: 'jsonl' };

const lineage = z.enum(LINEAGES).optional().describe('logical (default): the whole conversation; tip: the tip segment only');

/** Export (a download naming its digest) and deletion fenced by If-Match. */
export const retentionRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/sessions/:id/export',
    tag: 'retention',
    summary: 'Export the conversation as a file; its digest in X-Export-Digest',
    query: z.strictObject({
      format: z.enum(FORMATS).optional().describe('markdown (default), html, jsonl (raw, lossless) or qmd'),
      view: z.enum(EXPORT_VIEWS).optional(),
      lineage,
      only: z.string().optional().describe('roles separated by commas, e.g. user,assistant (display exports only)'),
    }),
    responses: {
      200: {
        description: `the export file, by format: ${FORMATS.map((format) => `${format} as ${CONTENT_TYPES[format].split(';')[0]}`).join(', ')} (UTF-8)`,
        contentType: [...new Set(FORMATS.map((format) => CONTENT_TYPES[format].split(';')[0]!))],
      },
      404: { description: 'unknown id' },
      410: { description: 'the session was deleted' },
    },
    handler: async ({ store, params, query, res, now }) => {
      const format = query.format ?? 'markdown';
      const result = await exportSession(store, params.id!, {
        format,
        view: query.view,
        lineage: query.lineage ?? 'logical',
        only: query.only === undefined ? undefined : parseRoles(query.only),
        now: now(),
      });
      res.writeHead(200, {
        'content-type': CONTENT_TYPES[format],
        'content-disposition': `attachment; filename="${encodeURIComponent(params.id!)}.${EXTENSIONS[format]}"`,
        'x-export-digest': result.digest,
      });
      res.end(result.bytes);
      return null;
    },
  }),
  route({
    method: 'GET',
    path: '/sessions/:id/deletion',
    tag: 'retention',
    summary: 'The deletion review: every stream DELETE /sessions/:id would tombstone, and the ETag that fences exactly those',
    description:
      'Delegated children are deleted with their conversation, and the view of GET /sessions/:id names none of their segments: its ETag fences a DELETE only while there are none. This ETag names every stream, so a write anywhere since makes the DELETE a 412 that deletes nothing.',
    query: z.strictObject({ lineage }),
    responses: { 200: { description: 'the review', schema: R.deletionReview }, 404: { description: 'unknown id' }, 410: { description: 'already deleted' } },
    handler: async ({ store, params, query }) => {
      const review = await reviewDeletion(store, params.id!, { lineage: query.lineage ?? 'logical' });
      return { body: review, headers: { etag: review.etag } };
    },
  }),
  route({
    method: 'DELETE',
    path: '/sessions/:id',
    tag: 'retention',
    summary: 'Delete the conversation by conditional tombstones',
    description:
      'Requires If-Match: the ETag of the deletion review (GET /sessions/:id/deletion), or * for whatever is current. The ETag of the view (GET /sessions/:id) is taken too while the conversation has no delegated children, whose segments that view does not name; with them it is a 412 pointing at the review.',
    headers: { 'If-Match': { description: 'the ETag of the deletion review or of the view the client saw (or a list), or *; compared strongly: a weak W/"…" tag never matches', required: true } },
    query: z.strictObject({ lineage }),
    responses: {
      200: { description: 'deleted: the streams tombstoned', schema: R.deleted },
      404: { description: 'unknown id' },
      409: { description: 'a live turn holds it' },
      410: { description: 'already deleted' },
      412: { description: 'the conversation changed since that ETag, or the ETag does not name every stream the deletion tombstones' },
      428: { description: 'no If-Match' },
    },
    handler: async ({ ledger, params, query, req, now }) => {
      const ifMatch = req.headers['if-match'];
      if (ifMatch === undefined) {
        throw httpProblem(428, 'precondition_required', 'DELETE needs If-Match: the ETag of the deletion review (GET /sessions/:id/deletion), or * for whatever is current');
      }
      return { body: await deleteSession(ledger, params.id!, { ifMatch, lineage: query.lineage ?? 'logical', now: now() }) };
    },
  }),
];
