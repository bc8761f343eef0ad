// (b) Subscribe with a durable checkpoint: the position is stored in the ledger after each handled
//     event, so a restarted subscriber resumes where it stopped (at least once, no gap). A handler
//     that throws is retried with backoff, then parked naming the event, until
//     `npx session-ledger subscribers resume NAME` (or resumeSubscribers) un-parks it.
//     npm install @session-ledger/core @session-ledger/store-sqlite
//     node durable-subscriber.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId, readSubscriberStatus, resumeSubscribers, startDurableSubscriber } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';

const scratch = mkdtempSync(join(tmpdir(), 'ledger-example-'));
const store = openSqliteStore(join(scratch, 'ledger.sqlite'));
const place = (n) => store.appendToStream(`orders-${n}`, [{ id: newId(), type: 'order.placed', data: { n } }]);
const until = async (condition) => {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
};
try {
  await place(1);
  await place(2);
  const options = { filter: { streamNamePrefixes: ['orders-'] }, retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 }, onWarning: () => {} };

  const billed = [];
  const first = startDurableSubscriber(store, 'billing', (event) => void billed.push(event.data.n), options);
  await first.caughtUp;
  await first.stop();
  console.log(`first run billed ${billed.join(',')}; checkpoint ${(await readSubscriberStatus(store, 'billing')).checkpoint}`);

  await place(3); // written while no subscriber runs
  let billingDown = true;
  const second = startDurableSubscriber(
    store,
    'billing',
    (event) => {
      if (billingDown) throw new Error('billing service unavailable');
      billed.push(event.data.n);
    },
    options,
  );
  await until(async () => (await readSubscriberStatus(store, 'billing')).state === 'parked');
  const parked = await readSubscriberStatus(store, 'billing');
  console.log(`parked after ${parked.failed.attempts} attempts at ${parked.failed.stream}@${parked.failed.revision}: ${parked.reason}`);

  billingDown = false;
  await resumeSubscribers(store, 'billing');
  await until(() => billed.length === 3);
  await second.stop();
  console.log(`after resume billed ${billed.join(',')}`);
} finally {
  await store.close();
  rmSync(scratch, { recursive: true, force: true });
}
