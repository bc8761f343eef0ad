import { z } from 'zod';
import * as R from '../contract/responses.js';
import { route, type Route } from '../types.js';

export const auditRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/audit/verify',
    tag: 'audit',
    summary: 'Verify the hash chain',
    query: z.strictObject({ stream: z.string().min(1).optional().describe('one stream (default: every stream)') }),
    responses: { 200: { description: 'every link holds', schema: R.verifyReport }, 409: { description: 'a broken link: the report names the first', schema: R.verifyReport } },
    handler: async ({ ledger, query }) => {
      const report = await ledger.verify({ stream: query.stream });
      return { status: report.broken ? 409 : 200, body: { ok: report.broken === null, ...report } };
    },
  }),
  route({
    method: 'GET',
    path: '/health',
    tag: 'service',
    summary: 'Liveness and the store in use',
    responses: { 200: { description: 'serving', schema: R.health } },
    handler: async ({ store }) => ({ body: { ok: true, store: store.name } }),
  }),
];
