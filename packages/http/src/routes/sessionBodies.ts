import { invalidInput, parseExpected, type JsonObject } from '@session-ledger/core';
import { CHILD_LINKS, isoTime } from '@session-ledger/events';
import { z } from 'zod';
import { duration, expectedRevision, jsonObject, name, newId, NO_PROTO_KEY, optional, outcome, role, safeId } from '../contract/common.js';

/** The body of every session write: one strict schema each (unknown keys are refused with 400). */
const text = optional(z.string());
/** Fields the message event requires non-empty when given (toolCallId, toolName): the document said any string. */
const nonEmpty = optional(z.string().min(1));
const id = optional(safeId);
/** An id for something new: not "." or ".." (no URL can name them). */
const fresh = optional(newId);
const expected = { expectedRevision };

/**
 * parentId and link go together: both, or neither (null counts as not given). The rule is checked
 * here and published as the `anyOf` beside it; the document accepted either alone, which the writer
 * refused (outside test, session 30).
 */
const PARENT_AND_LINK = {
  anyOf: [
    { properties: { parentId: { type: 'null' }, link: { type: 'null' } } },
    { required: ['parentId', 'link'], properties: { parentId: { type: 'string' }, link: { type: 'string' } } },
  ],
};

export const startBody = z
  .strictObject({
    id: fresh.describe('the session id (default: a new one); starting an existing id again is a no-op (200)'),
    parentId: id,
    link: optional(z.enum(CHILD_LINKS)).describe('how a child relates to parentId (compress a session to make a compression child)'),
    model: text,
    source: text,
    title: text,
  })
  .refine((body) => (body.parentId === undefined) === (body.link === undefined), { message: 'parentId and link go together', path: ['link'] })
  .meta(PARENT_AND_LINK);

/** The owner: non-empty, no control characters, as the turn event requires (the document said any string; session 31, F2). */
export const beginTurnBody = z.strictObject({ ttl: optional(duration), owner: optional(name), turnId: fresh, ...expected });
export const renewBody = z.strictObject({ ttl: optional(duration), ...expected });
export const endTurnBody = z.strictObject({ outcome: optional(outcome), ...expected });

const toolCalls = optional(z.array(jsonObject));

/** One field given in our spelling or the OpenAI one, never both. */
const alias = <T>(field: string, ours: T | undefined, theirs: T | undefined, spelled: string): T | undefined => {
  if (ours !== undefined && theirs !== undefined) throw invalidInput(`Give ${field} or ${spelled}, not both`, field);
  return ours ?? theirs;
};

const messageFields = z.strictObject({
  role,
  content: z.string().nullable().describe('the text; null for a reply that only calls tools'),
  id: fresh.describe('the message id; reuse it to retry idempotently'),
  turnId: id.describe('the turn that writes it: refused once another turn followed or it ended'),
  toolCalls,
  toolCallId: nonEmpty,
  toolName: nonEmpty,
  tool_calls: toolCalls.describe('OpenAI spelling of toolCalls'),
  tool_call_id: nonEmpty.describe('OpenAI spelling of toolCallId'),
  name: nonEmpty.describe("OpenAI spelling of toolName, on a tool message only (on other roles OpenAI's name is the participant's, which the ledger does not keep: refused)"),
  timestamp: optional(isoTime).describe('when it was said (default: now): an ISO 8601 date-time with its offset'),
  finishReason: text,
  reasoning: text,
  tokenCounts: optional(z.record(z.string(), z.number().int().nonnegative()).meta({ propertyNames: NO_PROTO_KEY })),
  ...expected,
});
type OpenAiSpelling = 'tool_calls' | 'tool_call_id' | 'name';

/**
 * A message. The OpenAI chat message shape is accepted too: `tool_calls`, `tool_call_id` and `name`
 * are aliases of toolCalls, toolCallId and toolName (giving both spellings of one field is refused);
 * `name` only on a tool message: on the others OpenAI means the participant's name, refused rather
 * than stored as a tool's.
 * The result is written out field by field, not by rest/spread (benchmark row "group commit: HTTP
 * appends, 32 keep-alive clients"); `satisfies` makes the compiler name any field left out.
 */
export const messageBody = messageFields.transform((body) => {
  if (body.name !== undefined && body.role !== 'tool') {
    throw invalidInput(`name on a ${body.role} message is OpenAI's participant name, which the ledger does not keep; it spells toolName on a tool message only`, 'name');
  }
  const message = {
    role: body.role,
    content: body.content,
    id: body.id,
    turnId: body.turnId,
    toolCalls: alias('toolCalls', body.toolCalls, body.tool_calls, 'tool_calls') as JsonObject[] | undefined,
    toolCallId: alias('toolCallId', body.toolCallId, body.tool_call_id, 'tool_call_id'),
    toolName: alias('toolName', body.toolName, body.name, 'name'),
    timestamp: body.timestamp,
    finishReason: body.finishReason,
    reasoning: body.reasoning,
    tokenCounts: body.tokenCounts,
    expectedRevision: body.expectedRevision,
  } satisfies Record<Exclude<keyof z.output<typeof messageFields>, OpenAiSpelling>, unknown>;
  return message;
});

export const rewriteBody = z.strictObject({ content: z.string().nullable(), ...expected });
export const compactBody = z.strictObject({
  through: safeId.describe('the last message id to compact'),
  summary: z.string(),
  summaryId: fresh.describe('the summary id (default: a new one); a retry with the same id stores nothing (written false)'),
  ...expected,
});
export const compressBody = z.strictObject({ summary: z.string(), childId: fresh, ...expected });
export const reopenSessionBody = z.strictObject({ ...expected });
export const endSessionBody = z.strictObject({ reason: text, turnId: id.describe('the live turn ending it: while a live turn holds the session, only it may end it (409 session_active)'), ...expected });

/** `expectedRevision` as the writer API takes it. */
export const expectedOf = (value: number | string | null | undefined): bigint | undefined =>
  value === undefined || value === null ? undefined : (parseExpected(String(value)) as bigint);
