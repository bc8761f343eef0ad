import { z } from 'zod';

/** The documented response bodies. Revisions and positions are printed as JSON numbers. */
const whole = z.number().int().nonnegative();

export const problem = z
  .object({
    type: z.string().describe('urn:session-ledger:error:<code>'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().describe('the stable error code (the CLI and the ledger use the same codes)'),
    details: z.unknown().describe('typed per code'),
    error: z.object({ type: z.string(), message: z.string(), details: z.unknown() }).describe('the same error in the pre-RFC 9457 shape'),
  })
  .describe('An RFC 9457 problem (application/problem+json)');

export const recordedEvent = z.object({
  stream: z.string(),
  id: z.string(),
  type: z.string(),
  revision: whole,
  position: whole,
  data: z.unknown(),
  metadata: z.unknown(),
  created: z.string(),
});

export const events = z.array(recordedEvent);

export const health = z.object({ ok: z.literal(true), store: z.string() });

export const streamAppended = z.object({ stream: z.string(), nextExpectedRevision: whole, position: whole, written: z.boolean().optional() });

/** What every session write answers: the segment written, its next revision, the commit position. */
const write = { sessionId: z.string(), revision: whole, position: whole.optional(), written: z.boolean().optional() };

export const sessionStarted = z.looseObject({ ...write, rootId: z.string(), parentId: z.string().nullable(), created: z.boolean().optional() });
export const turnBegun = z.looseObject({ ...write, turnId: z.string(), leaseExpiresAt: z.string() });
export const messageAppended = z.looseObject({ ...write, messageId: z.string() });
export const sessionWritten = z.looseObject(write);
export const compacted = z.looseObject({ ...write, summaryId: z.string() });
export const compressed = z.looseObject({ sessionId: z.string(), rootId: z.string(), parentId: z.string() });

const conversationSegments = z.array(z.looseObject({ sessionId: z.string() }));
/** The active and display views: the messages. */
const messageView = z.looseObject({
  rootId: z.string(),
  tipId: z.string(),
  segments: conversationSegments,
  messages: z.array(z.looseObject({})),
  earlier: z
    .looseObject({ messages: z.number().int(), segments: conversationSegments })
    .optional()
    .describe('display of a conversation started by a reset (link reset): how many of the first messages come from the conversations it reset, and their segments'),
});
/** The raw view: every event of every segment. */
const rawView = z.looseObject({ rootId: z.string(), tipId: z.string(), segments: conversationSegments, events: z.array(z.looseObject({ type: z.string() })) });
export const conversation = z.union([messageView, rawView]).describe('view=active or display: messages; view=raw: events');
export const conversations = z.array(z.looseObject({ rootId: z.string(), tipId: z.string() }));
export const deletionReview = z
  .object({
    requestedId: z.string(),
    rootId: z.string(),
    lineage: z.enum(['logical', 'tip']),
    streams: z.array(
      z.object({
        sessionId: z.string(),
        revision: whole,
        rootId: z.string().describe('the conversation it is a segment of'),
        link: z.enum(['delegation']).nullable().describe('null: the conversation asked for; delegation: a delegated child of a covered one'),
        depth: z.number().int().nonnegative(),
      }),
    ),
    etag: z.string().describe('also the ETag header: DELETE with it in If-Match tombstones exactly these streams at these revisions, or nothing'),
    unfinished: z
      .array(z.object({ intent: z.string(), at: z.string(), reason: z.string(), requestedId: z.string() }))
      .describe(
        'deletions of this conversation started and stopped part way (a process killed between tombstones), oldest first: while any is listed, streams are the ones they name at the revisions their intents fix (some may be tombstoned already), and DELETE with this ETag finishes them',
      ),
  })
  .describe('What DELETE /sessions/:id would tombstone now: every segment stream, delegated children included');

export const deleted = z.looseObject({ requestedId: z.string(), rootId: z.string(), deleted: z.array(z.string()) });
export const verifyReport = z.looseObject({ ok: z.boolean() });

const hash = z.string().regex(/^[0-9a-f]{64}$/);
export const logDigest = z.object({ size: whole, root: hash, at: z.string() });
export const inclusionProof = z.object({
  stream: z.string(),
  revision: whole,
  position: whole,
  index: whole,
  leafHash: hash,
  leafInput: z.string().nullable().describe('null when the event was erased: its leaf hash still proves'),
  size: whole,
  root: hash,
  path: z.array(hash),
  erasedBy: z
    .object({ index: whole, leafInput: z.string(), path: z.array(hash).nullable() })
    .optional()
    .describe("an erased event's: the recorded deletion that erased it (its leaf, leaf input, and audit path in this tree when the tree holds it)"),
});

export const memoryBatch = z.looseObject({
  revision: whole,
  written: z.boolean().describe('false: the batch was committed before under its batchId; these are its receipts'),
  receipts: z.array(z.looseObject({ op: z.string() })),
});
export const mirrorAdopted = z.looseObject({ dir: z.string(), profile: z.string(), operations: z.array(z.looseObject({ op: z.string() })), batch: memoryBatch.nullable() });
export const memoryEntries = z.array(z.object({ id: z.string(), target: z.enum(['memory', 'user']), content: z.string() }));
export const providerStatus = z.looseObject({ name: z.string(), state: z.string() });
export const providerStatuses = z.array(providerStatus);
export const resumed = z.object({ resumed: z.array(z.unknown()) });
export const mirrorRebuilt = z.object({ dir: z.string(), profile: z.string(), entries: whole, position: whole.nullable() });

export const openapi = z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.record(z.string(), z.unknown()) });
