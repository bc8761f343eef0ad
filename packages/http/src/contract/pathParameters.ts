import { PROVIDER_NAME } from '@session-ledger/memory';
import { z } from 'zod';
import { belowLimitDigits, name, safeId } from './common.js';

/**
 * The schema of each path parameter, by its name in the route's path: the router checks every
 * decoded segment by it and the OpenAPI document publishes it. The document said any string while
 * the server refused (400) a session id with a space or a revision past 2^63 (outside test, session 30).
 */
export const PATH_PARAMETERS: Record<string, z.ZodType<string>> = {
  // A route with `selector` also takes a unique prefix or a title here (SELECTOR_ID), so only the name rule applies.
  id: name.describe('a session id'),
  turn: safeId.describe('a turn id'),
  message: safeId.describe('a message id'),
  stream: name.describe('a stream name'),
  revision: belowLimitDigits.describe('a stream revision: a whole number below 2^63'),
  index: belowLimitDigits.describe('a leaf index: a whole number below 2^63'),
  name: z.string().regex(PROVIDER_NAME, 'must be 1-64 letters, digits, "_", ".", ":" or "-", starting with a letter or digit').describe('a memory provider name'),
};

/**
 * What `:id` is on a route that resolves it as a selector. Every `/sessions/{id}` operation said so,
 * while only these resolve one; the others answered 404 to a prefix or a title (outside test,
 * session 33, helper-92 F4).
 */
export const SELECTOR_ID = 'a session id, a unique prefix of one (4+ characters), or an exact title';
