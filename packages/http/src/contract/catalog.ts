import { z } from 'zod';
import { name, wholeQuery } from './common.js';
import { CHILD_LINKS } from '@session-ledger/events';

/** GET /sessions: a page of the catalog read model (the contract shared with the search and the browser). */
export const catalogQuery = z.strictObject({
  limit: wholeQuery(1, 200)
    .optional()
    .describe('rows per page, 1 to 200 (default 50)'),
  cursor: z.string().min(1).max(500).optional().describe('the nextCursor of the previous page (opaque)'),
  source: name.optional().describe('only conversations from this source'),
  live: z.enum(['true', 'false']).optional().describe('true: only conversations a live turn holds now; false: only the others'),
  since: z.string().min(1).max(64).optional().describe('only conversations active since an ISO time, or a duration back from now such as 7d'),
});

export const catalogRow = z.object({
  rootId: z.string(),
  tipId: z.string(),
  segments: z.array(z.string()),
  title: z.string().optional(),
  source: z.string().nullable(),
  model: z.string().nullable(),
  messages: z.number().int(),
  firstActivity: z.string().nullable(),
  lastActivity: z.string().nullable(),
  live: z.boolean(),
  ended: z.boolean(),
  parentId: z.string().nullable(),
  link: z.enum(CHILD_LINKS).nullable(),
});

export const catalogPageBody = z.object({ sessions: z.array(catalogRow), nextCursor: z.string().nullable() });

export const catalogStatsBody = z.object({
  sessions: z.number().int(),
  messages: z.number().int(),
  bySource: z.array(z.object({ source: z.string().nullable(), sessions: z.number().int(), messages: z.number().int() })),
  byModel: z.array(z.object({ model: z.string().nullable(), sessions: z.number().int(), messages: z.number().int() })),
  storeBytes: z.number().int().nullable(),
});
