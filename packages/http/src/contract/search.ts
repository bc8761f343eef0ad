import { z } from 'zod';
import { codePoints, MAX_LIMIT, MAX_QUERY } from '@session-ledger/read-models';
import { name, optional, role, wholeQuery } from './common.js';

/** GET /search: the shared contract of issue 15 (q 1..500 characters, limit 1..100, default 20). */
export const searchQuery = z.strictObject({
  // Characters are code points, as JSON Schema's maxLength counts them: the server counted UTF-16
  // units, so 251 emoji were documented and refused (outside test, session 31, F7).
  q: z
    .string()
    .min(1)
    .refine((q) => codePoints(q) <= MAX_QUERY, `must be 1 to ${MAX_QUERY} characters`)
    .meta({ maxLength: MAX_QUERY })
    .describe('what was said: every word must occur (words of 3 characters or more are looked up; shorter ones filter)'),
  limit: wholeQuery(1, MAX_LIMIT)
    .optional()
    .describe(`how many hits, 1 to ${MAX_LIMIT} (default 20)`),
  role: optional(role).describe('only messages of this role'),
  source: optional(name).describe("only conversations whose root segment has this source (e.g. hermes, cli)"),
  since: optional(name).describe('only messages at or after an ISO time, or within a duration such as 7d or 12h'),
});

export const searchHit = z.object({
  rootId: z.string(),
  tipId: z.string(),
  messageId: z.string(),
  role: z.string(),
  snippet: z.string().describe('plain text around the match, never HTML'),
  marks: z.array(z.tuple([z.number().int(), z.number().int()])).describe('[start, end) UTF-16 offsets into snippet of the matched text'),
  rank: z.number().describe('larger is better'),
});

export const searchResult = z.object({ query: z.string(), hits: z.array(searchHit).describe('best first') });
