// (a) Append to a stream and read it back, on the embedded SQLite store.
//     npm install @session-ledger/core @session-ledger/store-sqlite
//     node append-and-read.mjs [LEDGER_FILE]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLedger, newId } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';

const scratch = process.argv[2] ? null : mkdtempSync(join(tmpdir(), 'ledger-example-'));
const store = openSqliteStore(process.argv[2] ?? join(scratch, 'ledger.sqlite'));
try {
  // The ledger adds the hash chain (prevHash, hash) to each event's metadata before the store sees it.
  const ledger = createLedger(store);
  const first = await ledger.append('orders-1', [{ id: newId(), type: 'order.placed', data: { sku: 'A-1', qty: 2 } }], { expectedRevision: 'no_stream' });
  // Conditional on the revision we know: a concurrent writer would make this fail with wrong_expected_version.
  await ledger.append('orders-1', [{ id: newId(), type: 'order.paid', data: { amount: 40 } }], { expectedRevision: first.nextExpectedRevision });

  for (const event of await store.readStream('orders-1')) {
    console.log(`${event.streamName}@${event.revision} ${event.type} ${JSON.stringify(event.data)}`);
  }
  const report = await ledger.verify({ stream: 'orders-1' });
  console.log(`chain ${report.broken ? 'broken' : 'intact'} over ${report.events} events`);
} finally {
  await store.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
