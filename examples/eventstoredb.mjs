// (d) The same port on EventStoreDB/KurrentDB: set ESDB_URL (e.g. esdb://127.0.0.1:2113?tls=false).
//     npm install @session-ledger/core @session-ledger/store-eventstoredb
//     ESDB_URL=esdb://127.0.0.1:2113?tls=false node eventstoredb.mjs
import { createLedger, newId, startDurableSubscriber } from '@session-ledger/core';
import { openEventStoreDbStore } from '@session-ledger/store-eventstoredb';

const url = process.env.ESDB_URL;
if (!url) {
  console.error('Set ESDB_URL to an EventStoreDB/KurrentDB connection string, e.g. esdb://127.0.0.1:2113?tls=false');
  process.exit(2);
}
const store = openEventStoreDbStore(url);
try {
  const stream = `orders-${newId().slice(0, 8)}`;
  const ledger = createLedger(store);
  await ledger.append(stream, [{ id: newId(), type: 'order.placed', data: { sku: 'A-1' } }], { expectedRevision: 'no_stream' });
  await ledger.append(stream, [{ id: newId(), type: 'order.paid', data: { amount: 40 } }], { expectedRevision: 0n });
  for (const event of await store.readStream(stream)) console.log(`${event.streamName.replace(/-.*/, '-*')}@${event.revision} ${event.type}`);

  const seen = [];
  const subscriber = startDurableSubscriber(store, `example-${stream}`, (event) => void seen.push(event.type), {
    filter: { streamNamePrefixes: [stream] },
  });
  await subscriber.caughtUp;
  await subscriber.stop();
  console.log(`subscriber saw ${seen.join(', ')}; chain ${(await ledger.verify({ stream })).broken ? 'broken' : 'intact'}`);
} finally {
  await store.close();
}
