import { z } from 'zod';
import { invalidInput, logUnsupported, notFound, type EventStore } from '@session-ledger/core';
import { name, wholeQuery } from '../contract/common.js';
import * as R from '../contract/responses.js';
import { route, type Route } from '../types.js';

const logOf = (store: EventStore) => {
  if (!store.log) throw logUnsupported(store.name);
  return store.log;
};

/** `?size=`: a proof in the tree of a digest kept earlier. */
const proofQuery = z.strictObject({
  size: z
    .string()
    .regex(/^[0-9]{1,15}$/, 'must be a whole number below 10^15')
    .transform(Number)
    .optional()
    .describe('in the tree of this many leaves (the size of a digest kept earlier; default: the current tree)'),
});

/** The log commitment's digest and inclusion proofs (GET /audit/verify is in audit.ts). */
export const auditLogRoutes: Route[] = [
  route({
    method: 'GET',
    path: '/audit/digest',
    tag: 'audit',
    summary: "The log's digest {size, root, at}, for an auditor to keep elsewhere",
    responses: { 200: { description: 'the digest', schema: R.logDigest }, 501: { description: 'the store keeps no log commitment (EventStoreDB)' } },
    handler: async ({ store, now }) => ({ body: { ...(await logOf(store).digest()), at: now().toISOString() } }),
  }),
  route({
    method: 'GET',
    path: '/audit/proof/:stream/:revision',
    tag: 'audit',
    summary: 'An inclusion proof of one event in the log (RFC 9162), checkable offline (docs/audit.md)',
    query: proofQuery,
    responses: {
      200: { description: 'the proof', schema: R.inclusionProof },
      400: { description: 'the revision is not a whole number' },
      404: { description: 'no leaf of the log holds stream@revision' },
      501: { description: 'the store keeps no log commitment (EventStoreDB)' },
    },
    handler: async ({ store, params, query }) => {
      const text = params.revision!;
      if (!/^[0-9]{1,19}$/.test(text) || BigInt(text) >= 2n ** 63n) throw invalidInput(`The revision must be a whole number below 2^63: ${text}`, 'revision');
      return { body: await logOf(store).proof(params.stream!, BigInt(text), query.size) };
    },
  }),
  route({
    method: 'GET',
    path: '/audit/leaves/:index/proof',
    tag: 'audit',
    summary: "An inclusion proof of any leaf by its index: a deletion's, as a retention.deleted record names it (docs/audit.md)",
    query: proofQuery,
    responses: {
      200: { description: "the proof; a deletion leaf's input has a deletion key, and revision is the deletion's head", schema: R.inclusionProof },
      400: { description: 'the index is not a whole number below 2^63' },
      404: { description: 'the tree has no leaf at that index' },
      501: { description: 'the store keeps no log commitment (EventStoreDB)' },
    },
    handler: async ({ store, params, query }) => {
      const text = params.index!;
      // The number rule of every route (a whole number below 2^63); past 2^53 no log has that many leaves (and Number would read another).
      if (!/^[0-9]{1,19}$/.test(text) || BigInt(text) >= 2n ** 63n) throw invalidInput(`The leaf index must be a whole number below 2^63: ${text}`, 'index');
      if (!Number.isSafeInteger(Number(text))) throw notFound('log leaf', `at index ${text}`);
      return { body: await logOf(store).leafProof(Number(text), query.size) };
    },
  }),
];

/** GET /audit/verify's query: one stream's chain, or the whole log against an optional saved digest. */
export const verifyQuery = z.strictObject({
  stream: name.optional().describe("one stream's hash chain only (default: the whole log)"),
  digest: z.string().min(1).optional().describe('a digest saved from GET /audit/digest, as its JSON text (URL-encoded): the log must extend it'),
  maxBreaks: wholeQuery(0, 10_000)
    .optional()
    .describe('list at most this many breaks (default 100; all are counted)'),
  indexes: z
    .enum(['true', 'false'])
    .optional()
    .describe("true: also check the store's own indexes against its events (SQLite: integrity_check, the id index, its watermarks); slower"),
});
