import { describe, expect, it } from 'vitest';
import { createLedger, readWholeStream, type EventStore } from '@session-ledger/core';
import { AUDIT_STREAM, deleteSession, reviewDeletion } from '@session-ledger/retention';
import { appendMessage, loadConversation } from '@session-ledger/sessions';
import { buildConversation, STORES, wrapStore, writerOn } from './helpers.js';

/**
 * A write landing between a deletion's read and its first conditional tombstone (drift: nothing is
 * deleted). Deleting "whatever is current" (no If-Match, or `*`) reads again and tries again; with an
 * If-Match naming a view, the session changed since that view: precondition_failed (HTTP 412).
 */
describe.each(STORES)('a session that moves under its deletion (%s)', (_name, open) => {
  /** The store, with `writes` messages slipped into the first segment to be tombstoned, one before each of its first tombstones. */
  const moving = (writes: number) => {
    const base = open();
    const writer = writerOn(base);
    let slipped = 0;
    const store: EventStore = wrapStore(base, {
      tombstoneStream: async (stream, options) => {
        if (stream === 'session-subsub' && slipped < writes) {
          slipped += 1;
          await appendMessage(writer.context, 'subsub', { role: 'user', content: `slipped in ${slipped}` });
        }
        return base.tombstoneStream(stream, options);
      },
    });
    return { ...writer, base, store, slipped: () => slipped };
  };
  const auditTypes = async (store: EventStore) => (await readWholeStream(store, AUDIT_STREAM)).map((event) => event.type);

  it('Given no If-Match or *, When one write slips in, Then the deletion is read again and goes through', async () => {
    for (const ifMatch of [undefined, '*']) {
      const { context, base, store, now } = moving(1);
      await buildConversation(context);
      const result = await deleteSession(createLedger(store), 'root', { now: now(), ifMatch });
      expect(result.deleted).toHaveLength(4);
      expect(await auditTypes(base)).toEqual(['retention.deletion_intended', 'retention.deletion_abandoned', 'retention.deletion_intended', 'retention.deleted']);
    }
  });

  it('Given an If-Match naming the deletion review read, When a write slips in, Then precondition_failed and nothing is deleted', async () => {
    const { context, base, store, now } = moving(1);
    await buildConversation(context);
    const { etag } = await reviewDeletion(base, 'root');
    await expect(deleteSession(createLedger(store), 'root', { now: now(), ifMatch: etag })).rejects.toMatchObject({ type: 'precondition_failed', message: expect.stringContaining('changed after it was read') });
    expect((await loadConversation(base, 'root', { view: 'display' })).segments).toHaveLength(2);
  });

  it('Given * and a session that keeps moving, Then the drift stands after three attempts and nothing is deleted', async () => {
    const { context, base, store, now, slipped } = moving(10);
    await buildConversation(context);
    await expect(deleteSession(createLedger(store), 'root', { now: now(), ifMatch: '*' })).rejects.toMatchObject({ type: 'drift' });
    expect(slipped()).toBe(3);
    expect((await loadConversation(base, 'subsub', { view: 'display' })).messages.map((message) => message.content)).toContain('slipped in 3');
  });
});
