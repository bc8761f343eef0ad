import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, readWholeStream, type EventStore } from '@session-ledger/core';
import { AUDIT_STREAM } from '@session-ledger/retention';
import { appendMessage, listConversations, loadConversation, type WriterContext } from '@session-ledger/sessions';
import { deleteSession, exportAndDelete, importJsonl, reviewDeletion } from '@session-ledger/retention';
import { openEsdbTestStore, type EsdbTestStore } from '../esdb-server/index.js';
import { buildConversation, COVERED, scratchDir, wrapStore, writerOn } from './helpers.js';

/** EventStoreDB through the real client (a gRPC test double): one tombstone per stream, no listStreams or streamState. */
const opened: EsdbTestStore[] = [];
const esdb = () => {
  const store = openEsdbTestStore();
  opened.push(store);
  return store;
};
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

describe('verified deletion on EventStoreDB', () => {
  it('tombstones exactly the covered streams at the exported revisions, audits, and the jsonl restores into another server', async () => {
    const { context, store, ledger, now } = writerOn(esdb());
    await buildConversation(context);
    const file = join(scratchDir(), 'root.jsonl');

    const result = await exportAndDelete(ledger, 'root', { format: 'jsonl', out: file, now: now() });

    expect([...result.deleted].sort()).toEqual([...COVERED].sort());
    for (const stream of COVERED) await expect(store.readStream(stream)).rejects.toMatchObject({ type: 'stream_deleted' });
    expect((await loadConversation(store, 'br')).messages).toHaveLength(1);
    expect((await readWholeStream(store, AUDIT_STREAM)).find((event) => event.type === 'retention.deleted')!.data).toMatchObject({ reason: 'export', complete: true });
    const other = esdb();
    await importJsonl(createLedger(other), file);
    expect((await loadConversation(other, 'root')).messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect((await createLedger(other).verify()).broken).toBeNull();
    await expect(importJsonl(createLedger(other), file)).rejects.toMatchObject({ type: 'duplicate' });
    await expect(importJsonl(ledger, file)).rejects.toMatchObject({ type: 'stream_deleted' });
    expect(readFileSync(file, 'utf8').split('\n')[0]).toContain('"kind":"manifest"');
  });

  // The server keeps the tombstoned streams' events in $all until a scavenge: the audit and the list account for them.
  it('after the verified deletion, and again after a scavenge: verify passes and the list leaves the conversation out', async () => {
    const { context, store, ledger, now } = writerOn(esdb());
    await buildConversation(context);
    await exportAndDelete(ledger, 'root', { format: 'jsonl', out: join(scratchDir(), 'root.jsonl'), now: now() });
    const listed = async () => (await listConversations(store, { now: now() })).map((row) => row.rootId);
    expect(await listed()).toEqual(['br']);
    const before = await ledger.verify();
    expect(before.broken).toBeNull();
    expect(before.deletedInAll).toBeGreaterThan(0);
    expect(await opened[0]!.scavenge()).toBe(before.deletedInAll);
    expect(await listed()).toEqual(['br']);
    expect(await ledger.verify()).toEqual({ ...before, deletedInAll: undefined });
  });

  const movingOnce = (base: EventStore, context: WriterContext) => {
    let moved = false;
    return wrapStore(base, {
      tombstoneStream: async (stream, options) => {
        if (stream === 'session-root-2' && !moved) {
          moved = true;
          await appendMessage(context, 'root-2', { id: 'late', role: 'user', content: 'landed in the gap' });
        }
        return base.tombstoneStream(stream, options);
      },
    });
  };

  it('a stream that moves after others were tombstoned, under an If-Match: partial_deletion names deleted and kept; deleting again finishes', async () => {
    const base = esdb();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    const { etag } = await reviewDeletion(base, 'root');

    await expect(deleteSession(createLedger(movingOnce(base, context)), 'root', { now: now(), ifMatch: etag })).rejects.toMatchObject({
      type: 'partial_deletion',
      details: { deleted: ['session-subsub', 'session-sub'], kept: ['session-root-2', 'session-root'], stream: 'session-root-2' },
    });
    const rest = await loadConversation(base, 'root');
    expect(rest.messages.map((m) => m.id)).toContain('late');

    const again = await deleteSession(createLedger(base), 'root', { now: now() });
    expect(again.deleted).toEqual(['session-root-2', 'session-root']);
  });

  // Whatever is current (no If-Match, or *): read again and finished, as after a drift (outside test, session 33, helper-92 F2).
  it('the same without an If-Match: the rest is read again and deleted; the answer names every stream', async () => {
    const base = esdb();
    const { context, now } = writerOn(base);
    await buildConversation(context);

    const result = await deleteSession(createLedger(movingOnce(base, context)), 'root', { now: now() });
    expect(result.deleted).toEqual(['session-subsub', 'session-sub', 'session-root-2', 'session-root']);
  });
});
