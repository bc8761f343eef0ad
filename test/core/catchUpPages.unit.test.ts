import { describe, expect, it } from 'vitest';
import { CATCH_UP_BYTES, CATCH_UP_PAGE, catchUpSubscription, withinBytes, type CatchUpPage, type RecordedEvent } from '@session-ledger/core';

const event = (position: number): RecordedEvent => ({ streamName: 's', revision: BigInt(position), position: BigInt(position), id: `e${position}`, type: 't', data: {}, metadata: {}, created: new Date(0) } as unknown as RecordedEvent);

describe('withinBytes: a page of history bounded by stored size, not only by count', () => {
  it('stops before the row that would pass the budget, but always takes one', () => {
    const sizes = [400, 400, 400, 100];
    expect(withinBytes(sizes, 500, 1000, (size) => size)).toEqual({ rows: [400, 400], more: true });
    expect(withinBytes([5000, 1], 500, 1000, (size) => size)).toEqual({ rows: [5000], more: true });
    expect(withinBytes([1, 2, 3], 500, 1000, (size) => size)).toEqual({ rows: [1, 2, 3], more: false });
    expect(withinBytes([1, 2, 3], 2, 1000, (size) => size)).toEqual({ rows: [1, 2], more: true });
    expect(withinBytes([], 2, 1000, (size: number) => size)).toEqual({ rows: [], more: false });
  });

  it('reads no row past the one it stops at (a database iterator is not drained)', () => {
    let pulled = 0;
    function* rows() {
      for (let n = 0; n < 100; n += 1) {
        pulled += 1;
        yield 300;
      }
    }
    expect(withinBytes(rows(), 500, 1000, (size) => size).rows).toHaveLength(3);
    expect(pulled).toBe(4);
  });
});

describe('catchUpSubscription over pages cut by bytes', () => {
  it('asks each page for CATCH_UP_BYTES at most, reads on after a short page with more, and signals caught-up once, after the last event', async () => {
    const stored = Array.from({ length: 7 }, (_, n) => event(n + 1));
    const asked: Array<[bigint | null, number, number]> = [];
    const subscription = catchUpSubscription(
      {
        readAfter: async (after, max, maxBytes): Promise<CatchUpPage> => {
          asked.push([after, max, maxBytes]);
          const start = after === null ? 0 : Number(after);
          // Two events a page, as a budget of large events would cut it.
          const events = stored.slice(start, start + 2);
          return { events, more: start + 2 < stored.length };
        },
        keyOf: (item) => item.position,
        head: async () => null,
        changeToken: () => 0,
        waitForChange: (_token, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
      },
      'start',
    );
    const seen: string[] = [];
    for await (const item of subscription) {
      seen.push(item.kind === 'event' ? `e${item.event.position}` : item.kind);
      if (item.kind === 'caught_up') break;
    }
    await subscription.close();
    expect(seen.filter((kind) => kind !== 'checkpoint')).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'caught_up']);
    expect(asked.map(([after]) => after)).toEqual([null, 2n, 4n, 6n]);
    for (const [, max, maxBytes] of asked) expect([max, maxBytes]).toEqual([CATCH_UP_PAGE, CATCH_UP_BYTES]);
  });
});
