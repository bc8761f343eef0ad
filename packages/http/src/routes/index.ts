import { createRequire } from 'node:module';
import * as R from '../contract/responses.js';
import { openApiDocument } from '../openapi.js';
import { route, type Route } from '../types.js';
import { auditRoutes } from './audit.js';
import { eventRoutes } from './events.js';
import { memoryRoutes } from './memory.js';
import { retentionRoutes } from './retention.js';
import { searchRoutes } from './search.js';
import { sessionRoutes } from './sessions.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** Every route group, one file each. A new group adds one line here. */
const GROUPS: Route[][] = [eventRoutes, auditRoutes, sessionRoutes, retentionRoutes, memoryRoutes, searchRoutes];

let document: unknown;

const openApiRoute = route({
  method: 'GET',
  path: '/openapi.json',
  tag: 'service',
  summary: 'This document: the OpenAPI 3.1 description of every route',
  responses: { 200: { description: 'the OpenAPI document', schema: R.openapi } },
  handler: async () => ({ body: (document ??= openApiDocument(ROUTES, version)) }),
});

export const ROUTES: Route[] = [...GROUPS.flat(), openApiRoute];

/** The OpenAPI document of every route (the one GET /openapi.json serves). */
export const openApi = (): unknown => (document ??= openApiDocument(ROUTES, version));
