import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, type EventStore } from '@session-ledger/core';
import { exportAndDelete, type ExportOptions } from '@session-ledger/retention';
import { buildConversation, COVERED, scratchDir, wrapStore, writerOn } from './helpers.js';

/**
 * export --delete-after-verified re-reads the covered streams after the file is verified and before
 * the first tombstone. `change` runs exactly then (the second verify step), as another process would.
 */
const deleteWhile = async (change: (store: EventStore) => Promise<void> | void, wrap: (store: EventStore) => EventStore = (store) => store) => {
  const { context, store, now } = writerOn(createMemoryStore());
  await buildConversation(context);
  const onProgress: ExportOptions['onProgress'] = (step, done) => {
    if (step === 'verify' && done === 1) void change(store);
  };
  const attempt = exportAndDelete(createLedger(wrap(store)), 'root', { format: 'markdown', out: join(scratchDir(), 'export.md'), now: now(), onProgress });
  return { store, attempt };
};

const nothingDeleted = async (store: EventStore) => {
  for (const stream of COVERED.filter((name) => name !== 'session-root-2')) expect((await store.readStream(stream)).length).toBeGreaterThan(0);
};

describe('the re-read before the first tombstone', () => {
  it('an event at the exported revision whose chain hash changed (edited in place) is drift, and nothing is deleted', async () => {
    const tampered = { on: false };
    const { store, attempt } = await deleteWhile(
      () => {
        tampered.on = true;
      },
      (base) =>
        wrapStore(base, {
          readStream: async (stream, options) => {
            const events = await base.readStream(stream, options);
            return tampered.on && stream === 'session-root-2' ? events.map((event) => ({ ...event, metadata: { ...event.metadata, hash: 'f'.repeat(64) } })) : events;
          },
        }),
    );

    await expect(attempt).rejects.toMatchObject({ type: 'drift', details: { stream: 'session-root-2', exported: '3' } });
    await nothingDeleted(store);
    expect((await store.readStream('session-root-2')).length).toBeGreaterThan(0);
  });

  it('a covered stream deleted by someone else is drift naming it gone, and nothing else is deleted', async () => {
    const { store, attempt } = await deleteWhile((base) => base.deleteStream('session-root-2').then(() => undefined));

    await expect(attempt).rejects.toMatchObject({ type: 'drift', details: { stream: 'session-root-2', exported: '3', current: 'gone' } });
    await nothingDeleted(store);
  });
});
