import { z } from 'zod';
import { invalidInput } from '@session-ledger/core';
import { DURATION_UNITS, parseDuration, parseOutcome, parseRole, ROLES, SAFE_ID, TURN_OUTCOMES } from '@session-ledger/events';
import { MAX_TTL_MS } from '@session-ledger/sessions';
import { digitsUpTo, wholeFromTo } from './digits.js';

/** Control characters (C0, DEL, C1) are refused in every name, id and type at the HTTP surface. */
export const NO_CONTROL = /^[^\u0000-\u001f\u007f-\u009f]*$/;

/** Revisions and positions are signed 64-bit integers in every store (SQLite's INTEGER). */
const LIMIT = 2n ** 63n;

/**
 * Decimal digits (leading zeros allowed) of a whole number below 2^63, as one pattern: at most 18
 * digits, or 19 that compare at most 9223372036854775807 digit by digit. The document published
 * `[0-9]{1,19}` beside a check it could not state, so 9999999999999999999 was documented and refused
 * (outside test, session 30); the server now applies this pattern itself.
 */
const belowLimit = wholeFromTo(0, LIMIT - 1n);

/** A non-empty string free of control characters: ids, names, event types. */
export const name = z.string().min(1).regex(NO_CONTROL, 'must not contain control characters');

/**
 * A session, message, turn or summary id, with the rule the writers apply (events' SAFE_ID), so the
 * published schema is the one enforced: it said any non-control string, and a client generated from
 * it sent ids the server refused (outside test, session 24).
 */
export const safeId = z.string().regex(SAFE_ID, "must be 1-200 letters, digits, '_', '-', '.' or ':'");

/**
 * An id given to something new (a session, compression child, message or turn): safeId but not "."
 * or "..", which no URL can name (events' checkNewId). The document allowed them and the server
 * refused them (outside test, session 30).
 */
export const newId = safeId.regex(/^(?!\.\.?$)/, 'cannot be "." or "..": URLs resolve them away (RFC 3986), so no address could name it');

/**
 * An event id: a UUID in any case, core's rule (isUuid), so the published schema is the one enforced:
 * it said any non-control string, and the server refused every id but a UUID (outside test, session 29, F3).
 */
export const eventId = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a UUID (8-4-4-4-12 hex digits)');

/** The digits of a whole number below 2^63 (a path segment or query value). */
export const belowLimitDigits = z.string().regex(belowLimit, 'must be a whole number below 2^63');

/** A position or revision in a query: digits only, below 2^63. */
export const position = belowLimitDigits
  .transform((text) => BigInt(text))
  .describe('a whole number below 2^63 (a commit position or stream revision)');

/** A whole number from `min` to `max` in a query, as one published pattern (digits.ts). */
export const wholeQuery = (min: 0 | 1, max: number) =>
  z.string().regex(wholeFromTo(min, BigInt(max)), `must be a whole number from ${min} to ${max}`).transform(Number);

/** A page size in a query: 1 to 10,000. */
export const count = wholeQuery(1, 10_000).describe('how many, 1 to 10000 (default 1000)');

const JSON_VALUE_REF = '#/components/schemas/JsonValue';
/** An object's keys: never `__proto__` (the server refuses one at any depth). */
export const NO_PROTO_KEY = { not: { const: '__proto__' } };

/**
 * The document's JsonValue: any JSON value whose objects have no key `__proto__`, at any depth (the
 * server refuses one: JavaScript readers drop it). The document said any value and the server
 * answered 400 (outside test, session 31, F4). The rule on numbers is stated in prose: no schema keyword says it.
 */
export const JSON_VALUE_SCHEMA = {
  description: 'any JSON value; no object in it has a key "__proto__", and a number JSON would read back with another whole part (9007199254740993, 123456789012345678.9) is refused: send it as a string',
  items: { $ref: JSON_VALUE_REF },
  propertyNames: NO_PROTO_KEY,
  additionalProperties: { $ref: JSON_VALUE_REF },
};

/** Any JSON value (required when the field is). */
export const jsonValue = z.unknown().refine((value) => value !== undefined, 'is required').meta({ $ref: JSON_VALUE_REF });

/** A JSON object: its members are JsonValues. */
export const jsonObject = z.record(z.string(), z.unknown()).meta({ propertyNames: NO_PROTO_KEY, additionalProperties: { $ref: JSON_VALUE_REF } });

/** A revision in a body: a whole number, or its decimal string (below 2^63). */
export const revision = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z.string().regex(belowLimit, 'must be a whole number below 2^63'),
]);

/** The revision a writer knows. */
export const expectedRevision = revision
  .nullish()
  .describe('the revision the writer last saw; the write is refused (409) if the session moved on');

/** A lease length in milliseconds: the sessions package's own limit, 1 ms to 366 days, whichever form it came in. */
const leaseMs = z
  .number()
  .int()
  .min(1, 'must be at least 1 ms')
  .max(MAX_TTL_MS, `must be at most 366 days (${MAX_TTL_MS} ms)`);

/**
 * A lease length as a duration string in the lease's range, 1ms to 366d, per unit (at most 52w), as
 * one published pattern: the document gave the duration parser's pattern beside a range in prose,
 * so 0s, 367d and 53w were documented and refused (outside test, session 31, F3).
 */
const LEASE_DURATION = new RegExp(
  `^(?!0+[a-z]+$)(?:${Object.entries(DURATION_UNITS)
    .map(([unit, ms]) => `${digitsUpTo(BigInt(Math.floor(MAX_TTL_MS / ms)))}${unit}`)
    .join('|')})$`,
);

/**
 * A duration string: the parser's own message for one that is none; one outside the range goes on
 * to leaseMs for the message milliseconds get (one past the limit stands for any larger, which could
 * pass 2^53 and be named by that limit instead); one in range spelt past the pattern (`000000001d`) is named here.
 */
const leaseDuration = (text: string): number => {
  const ms = parseDuration('ttl', text);
  if (LEASE_DURATION.test(text) || ms < 1) return ms;
  if (ms > MAX_TTL_MS) return MAX_TTL_MS + 1;
  throw invalidInput(`ttl must be a duration of 1ms to 366d with at most the digits of 366d in its unit (31622400000ms, 52w): ${JSON.stringify(text)}`, 'ttl');
};

/** A lease length: milliseconds, or a string such as 30s, 5m, 12h, 1d (the parser the CLI uses); one limit for both. */
export const duration = z
  .union([leaseMs, z.string().meta({ pattern: LEASE_DURATION.source })])
  .transform((value) => (typeof value === 'number' ? value : leaseDuration(value)))
  .pipe(leaseMs)
  .describe(`milliseconds (1 to ${MAX_TTL_MS}, 366 days), or a duration such as 30s, 5m, 12h or 1d in the same range (the duration parser the CLI uses)`);

/** A choice parsed by the CLI's own parser (its message, its codes); the schema documents the choices. */
const choice = <T extends string>(choices: readonly T[], parse: (label: string, text: string) => T, label: string) =>
  z
    .string()
    .meta({ enum: [...choices] })
    .transform((text) => parse(label, text));

export const role = choice(ROLES, parseRole, 'role');
export const outcome = choice(TURN_OUTCOMES, parseOutcome, 'outcome');

/** An optional string that may also be sent as null. */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);

/** No query parameters at all (unknown ones are refused). */
export const noQuery = z.strictObject({});
