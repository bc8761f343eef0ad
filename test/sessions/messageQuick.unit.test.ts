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
    extra: present(fc.constant({ k: 1 }), 1),
    toolCalls: present(fc.constant([]), 1),
    tokenCounts: present(fc.constant({ total: 3 }), 1),
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
  it('given any data, when the quick check accepts it, then the schema accepts it too, with the same data in the same key order', () => {
    fc.assert(
      fc.property(message, (data) => {
        const quick = quickMessageAppended(data);
        if (quick === undefined) return;
        accepted += 1;
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

  it('given tool calls, token counts, extras or an unknown key, when checked, then it leaves the message to the schema', () => {
    const base = { content: null, messageId: 'm', role: 'assistant', timestamp: '2026-01-01T00:00:00.000Z' };

    for (const more of [{ toolCalls: [] }, { tokenCounts: { total: 1 } }, { extra: {} }, { unknown: 1 }, { turnId: undefined }]) {
      expect(quickMessageAppended({ ...base, ...more })).toBeUndefined();
    }
    expect(quickMessageAppended(base)).toEqual(base);
  });
});
