import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newId, readSubscriberStatus, startDurableSubscriber, type DurableSubscriber, type EventStore } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { runCli, tempDir } from '../support/cli.js';

const until = async (condition: () => Promise<boolean> | boolean, what: string): Promise<void> => {
  for (let i = 0; i < 1500; i += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const open: Array<EventStore | DurableSubscriber> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await ('stop' in item ? item.stop() : item.close());
});

describe('session-ledger subscribers status|resume (CLI)', { timeout: 120_000 }, () => {
  it('shows a parked subscriber with the event it failed on, and resumes it from another process with nothing lost', async () => {
    const file = join(tempDir(), 'ledger.sqlite');
    const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
    const store = openSqliteStore(file);
    open.push(store);
    const orders = [1, 2, 3].map((n) => ({ id: newId(), type: 'order.placed', data: { n } }));
    await store.appendToStream('orders-1', orders);

    expect(runCli(['subscribers', 'status'], { env }).stdout.trim()).toBe('no durable subscribers registered');

    let broken = true;
    const seen: number[] = [];
    const subscriber = startDurableSubscriber(
      store,
      'billing',
      (event) => {
        if (broken && (event.data as { n: number }).n === 2) throw new Error('billing service unavailable');
        seen.push((event.data as { n: number }).n);
      },
      { filter: { streamNamePrefixes: ['orders-'] }, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 }, onWarning: () => undefined },
    );
    open.push(subscriber);
    await until(async () => (await readSubscriberStatus(store, 'billing').catch(() => null))?.state === 'parked', 'the parking');

    const status = runCli(['subscribers', 'status', 'billing', '--json'], { env });
    expect(status.code).toBe(0);
    expect(status.json()).toMatchObject({
      name: 'billing',
      state: 'parked',
      reason: 'billing service unavailable',
      failed: { stream: 'orders-1', revision: 1, eventId: orders[1]!.id, eventType: 'order.placed', attempts: 2 },
    });
    const plain = runCli(['subscribers', 'status'], { env });
    expect(plain.stdout).toContain(`billing\tparked: billing service unavailable at orders-1@1 (event ${orders[1]!.id}, order.placed, 2 attempts)`);
    expect(runCli(['subscribers', 'status', 'nobody'], { env }).code).toBe(3);
    expect(runCli(['subscribers', 'resume', 'nobody'], { env }).code).toBe(3);

    await store.appendToStream('orders-2', [{ id: newId(), type: 'order.placed', data: { n: 4 } }]);
    expect(seen).toEqual([1]);

    broken = false;
    const resumed = runCli(['subscribers', 'resume', 'billing', '--json'], { env });
    expect(resumed.code).toBe(0);
    expect(resumed.json()).toEqual({ resumed: ['billing'] });
    await until(() => seen.length === 4, 'the failed event, then the rest');
    expect(seen).toEqual([1, 2, 3, 4]);

    expect(runCli(['subscribers', 'status', 'billing', '--json'], { env }).json()).toMatchObject({ state: 'active' });
    const again = runCli(['subscribers', 'resume', 'billing'], { env });
    expect([again.code, again.stdout.trim()]).toEqual([0, 'billing is not parked']);
  });
});
