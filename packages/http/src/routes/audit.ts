import type { Route } from '../types.js';

export const auditRoutes: Route[] = [
  {
    method: 'GET',
    path: '/audit/verify',
    handler: async ({ ledger, query }) => {
      const report = await ledger.verify({ stream: query.get('stream') ?? undefined });
      return { status: report.broken ? 409 : 200, body: { ok: report.broken === null, ...report } };
    },
  },
  {
    method: 'GET',
    path: '/health',
    handler: async ({ store }) => ({ body: { ok: true, store: store.name } }),
  },
];
