import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messageAppendedV2, quickMessageAppended, ROLES } from '@session-ledger/events';

/** Values a harness (or a damaged store) might hand over for a text field, good and bad. */
const text = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('', 'm-1', 'turn:7', 'a b', 'é', 'x'.repeat(201)),
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.constant({}),
);
const isoTime = fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
const time = fc.oneof(
  { arbitrary: isoTime, weight: 8 },
  {
    arbitrary: fc.constantFrom(
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2023-11-14T22:13Z',
      '2023-11-14T24:00:00Z',
      '2023-11-14T22:13:23.123456789Z',
      '2023-11-14T22:13:23+01:00',
      '2023-11-14 22:13:23Z',
      '2023-11-14T22:13:23',
    ),
    weight: 1,
  },
  { arbitrary: text, weight: 1 },
);
const id = fc.oneof({ arbitrary: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,12}$/), weight: 9 }, { arbitrary: text, weight: 1 });
/**
 * JSON values as a harness or the Hermes import builds them, with the odd values zod refuses or
 * changes mixed in: non-finite numbers, a Date, a class instance, a lone surrogate (in a value or a
 * key), a `__proto__` key (zod drops it), a symbol key, a hole, undefined.
 */
class Boxed {
  value = 1;
}
const oddJson = fc.constantFrom<unknown>(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  new Date(0),
  new Boxed(),
  '\udcff',
  'a\ud800',
  { '\udcff': 1 },
  JSON.parse('{"__proto__": 1, "a": 2}') as unknown,
  { [Symbol('s')]: 1 },
  // eslint-disable-next-line no-sparse-arrays
  [1, , 2],
  undefined,
  -0,
  Object.create(null) as unknown,
);
const { json: jsonLeaf } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: fc.oneof(fc.string({ maxLength: 6 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null)), weight: 6 },
    { arbitrary: oddJson, weight: 1 },
    { arbitrary: fc.array(tie('json'), { maxLength: 3 }), weight: 2 },
    { arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), tie('json'), { maxKeys: 3 }), weight: 2 },
  ),
}));
const jsonObject = fc.oneof(
  { arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), jsonLeaf, { maxKeys: 4 }), weight: 8 },
  { arbitrary: oddJson, weight: 1 },
);
const tokenCounts = fc.oneof(
  { arbitrary: fc.dictionary(fc.constantFrom('total', 'input', 'output'), fc.nat()), weight: 6 },
  {
    arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53), fc.constant('1'), fc.constant(-1))),
    weight: 2,
  },
  { arbitrary: oddJson, weight: 1 },
);

/** Mostly a good value, sometimes a bad one: many cases reach the quick check's accepting side. */
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 9 }, { arbitrary: text, weight: 1 });
const ABSENT = Symbol('absent');
/** Present with the given chance out of 16, else the key is left out. */
const present = <T>(value: fc.Arbitrary<T>, sixteenths: number) =>
  fc.oneof({ arbitrary: value, weight: sixteenths }, { arbitrary: fc.constant(ABSENT), weight: 16 - sixteenths });

/** Every key of the schema, each present or not, plus keys the quick check leaves to the schema. */
const message = fc
  .record({
    content: present(fc.oneof({ arbitrary: fc.string(), weight: 6 }, { arbitrary: fc.constant(null), weight: 2 }, { arbitrary: text, weight: 1 }), 15),
    messageId: present(id, 15),
    role: present(mostly(fc.constantFrom(...ROLES)), 15),
    timestamp: present(time, 15),
    finishReason: present(mostly(fc.string()), 6),
    reasoning: present(mostly(fc.string()), 6),
    toolCallId: present(mostly(fc.string({ minLength: 1 })), 6),
    toolName: present(mostly(fc.string({ minLength: 1 })), 6),
    turnId: present(id, 6),
    extra: present(mostly(jsonObject), 4),
    toolCalls: present(mostly(fc.array(jsonObject, { maxLength: 3 })), 4),
    tokenCounts: present(mostly(tokenCounts), 4),
    unknown: present(fc.constant('x'), 1),
  })
  .map((data) => Object.fromEntries(Object.entries(data).filter(([, value]) => value !== ABSENT)));

/** The usual message: what a harness writes for most turns. */
const usual = fc.record(
  {
    content: fc.oneof(fc.string(), fc.constant(null)),
    messageId: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,40}$/),
    role: fc.constantFrom(...ROLES),
    timestamp: isoTime,
    reasoning: fc.string(),
    turnId: fc.stringMatching(/^[A-Za-z0-9_.:-]{1,40}$/),
    toolCallId: fc.string({ minLength: 1 }),
  },
  { requiredKeys: ['content', 'messageId', 'role', 'timestamp'] },
);

describe('message.appended quick check', () => {
  let accepted = 0;
  let acceptedJson = 0;
  it('given any data, when the quick check accepts it, then the schema accepts it too, with the same data in the same key order', () => {
    fc.assert(
      fc.property(message, (data) => {
        const quick = quickMessageAppended(data);
        if (quick === undefined) return;
        accepted += 1;
        if ('extra' in data || 'toolCalls' in data || 'tokenCounts' in data) acceptedJson += 1;
        const parsed = messageAppendedV2.safeParse(data);
        expect(parsed.success).toBe(true);
        expect(quick).toStrictEqual(parsed.data);
        expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed.data));
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the accepting side often enough for the property to mean something
    // (about a third of the cases; a fixed floor far below that, so the check never flakes).
    expect(accepted).toBeGreaterThan(300);
    // ... and the side holding extras, tool calls or token counts (about a quarter of the accepted).
    expect(acceptedJson).toBeGreaterThan(100);
  });

  it('given the usual message (text fields only), when checked, then the quick check answers, as the schema does', () => {
    fc.assert(
      fc.property(usual, (data) => {
        const quick = quickMessageAppended(data);
        expect(quick).toBeDefined();
        expect(JSON.stringify(quick)).toBe(JSON.stringify(messageAppendedV2.parse(data)));
      }),
      { numRuns: 500 },
    );
  });

  it('given extras, tool calls and token counts of plain JSON (the Hermes import\'s message), when checked, then the quick check answers with the schema\'s output, a copy', () => {
    const data = {
      messageId: 'hm-9',
      role: 'assistant',
      content: null,
      timestamp: '2026-01-01T00:00:00.000Z',
      toolCalls: [{ id: 'c1', type: 'function', function: { name: 'grep', arguments: '{"q":"x"}' } }],
      tokenCounts: { total: 30 },
      finishReason: 'tool_calls',
      extra: { hermes: { columns: { platform_message_id: null }, rowId: 9, timestamp: 1700000000.5, parts: [{ type: 'text', text: 'é😀' }] } },
    };
    const quick = quickMessageAppended(data);
    expect(quick).toBeDefined();
    expect(JSON.stringify(quick)).toBe(JSON.stringify(messageAppendedV2.parse(data)));
    expect(quick!.extra).not.toBe(data.extra);
    expect(quick!.toolCalls![0]).not.toBe(data.toolCalls[0]);
  });

  it('given a value the schema refuses or changes inside extras, tool calls or token counts, when checked, then it leaves the message to the schema', () => {
    const base = { content: null, messageId: 'm', role: 'assistant', timestamp: '2026-01-01T00:00:00.000Z' };
    const refused: Array<Record<string, unknown>> = [
      { extra: { n: Number.NaN } },
      { extra: { n: [Number.POSITIVE_INFINITY] } },
      { extra: { d: new Date(0) } },
      { extra: new Date(0) },
      { extra: [] },
      { extra: { a: [1, undefined] } },
      { extra: { [Symbol('s')]: 1 } },
      { toolCalls: [[]] },
      { toolCalls: [null] },
      { toolCalls: {} },
      { tokenCounts: { total: -1 } },
      { tokenCounts: { total: 1.5 } },
      { tokenCounts: { total: 2 ** 53 } },
      { tokenCounts: { total: '1' } },
      { tokenCounts: [] },
    ];
    for (const more of refused) {
      const data = { ...base, ...more };
      expect(messageAppendedV2.safeParse(data).success, JSON.stringify(Object.keys(more))).toBe(false);
      expect(quickMessageAppended(data)).toBeUndefined();
    }
    // Accepted by zod, but changed (a `__proto__` key dropped) or not well-formed: the schema decides.
    const changed: Array<Record<string, unknown>> = [
      { extra: JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown },
      { extra: { text: 'lone \udcff' } },
      { extra: { '\ud800': 1 } },
      { toolCalls: [{ arguments: '\udcff' }] },
    ];
    for (const more of changed) expect(quickMessageAppended({ ...base, ...more })).toBeUndefined();
  });

  it('given an unknown key or an optional key present as undefined, when checked, then it leaves the message to the schema', () => {
    const base = { content: null, messageId: 'm', role: 'assistant', timestamp: '2026-01-01T00:00:00.000Z' };

    for (const more of [{ unknown: 1 }, { turnId: undefined }, { extra: undefined }, { toolCalls: undefined }, { tokenCounts: undefined }]) {
      expect(quickMessageAppended({ ...base, ...more })).toBeUndefined();
    }
    expect(quickMessageAppended(base)).toEqual(base);
  });
});
