import { invalidInput, parseDigest, verifyLog } from '@session-ledger/core';
import * as R from '../contract/responses.js';
import { route, type Route } from '../types.js';
import { auditLogRoutes, verifyQuery } from './auditLog.js';

export const auditRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/audit/verify',
    tag: 'audit',
    summary: 'Verify the whole log (every break listed), or one stream\'s hash chain',
    query: verifyQuery,
    responses: {
      200: { description: 'everything holds', schema: R.verifyReport },
      400: { description: 'the digest is not a digest, or a stream with a digest' },
      409: { description: 'breaks: the report lists them (up to maxBreaks), or names the first broken link of a chain', schema: R.verifyReport },
      404: { description: 'with stream: no such stream' },
      410: { description: 'with stream: the stream was deleted for good' },
    },
    handler: async ({ ledger, store, query }) => {
      if (query.stream !== undefined && (query.digest ?? query.maxBreaks ?? query.indexes) !== undefined) throw invalidInput('digest, maxBreaks and indexes check the whole log: drop stream', 'stream');
      const digest = query.digest === undefined ? undefined : parseDigest(query.digest);
      if (query.stream === undefined && (store.log || digest)) {
        // The leaf sweep on the store's worker threads whatever the log's size (minLeaves 1): below the
        // library's 65,536 it ran on the server's thread, and one verify held every other client for
        // seconds on a ledger of large events (outside test, session 27).
        const report = await verifyLog(store, { digest, maxBreaks: query.maxBreaks, indexes: query.indexes === 'true', parallel: { minLeaves: 1 } });
        return { status: report.ok ? 200 : 409, body: report };
      }
      const report = await ledger.verify({ stream: query.stream });
      return { status: report.broken ? 409 : 200, body: { ok: report.broken === null, ...report } };
    },
  }),
  ...auditLogRoutes,
  route({
    method: 'GET',
    path: '/health',
    tag: 'service',
    summary: 'Liveness and the store in use',
    responses: { 200: { description: 'serving', schema: R.health } },
    handler: async ({ store }) => ({ body: { ok: true, store: store.name } }),
  }),
];
