import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger, readWholeStream, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { AUDIT_STREAM } from '@session-ledger/retention';
import { appendMessage } from '@session-ledger/sessions';
import { deleteSession, exportAndDelete, pendingIntents, pruneSessions } from '@session-ledger/retention';
import { buildConversation, COVERED, killedAfter, scratchDir, STORES, writerOn } from './helpers.js';

const ONCE = { attempts: 1, baseDelayMs: 1 };

const tombstonedOf = async (store: EventStore, streams: string[]) => {
  const out: string[] = [];
  for (const stream of streams) if (await store.readStream(stream).then(() => false, (error) => error.type === 'stream_deleted')) out.push(stream);
  return out;
};

const records = async (store: EventStore, type: string) => (await readWholeStream(store, AUDIT_STREAM)).filter((event) => event.type === type);
const streamsNamed = (event: RecordedEvent, key: 'streams' | 'deleted') =>
  ((event.data as Record<string, unknown>)[key] as Array<{ stream: string } | string>).map((item) => (typeof item === 'string' ? item : item.stream));

/** Every tombstoned stream is named by a deletion record: an intent, and once completed, an outcome. */
const everyTombstoneAudited = async (store: EventStore) => {
  const tombstoned = await tombstonedOf(store, COVERED);
  const intents = new Set((await records(store, 'retention.deletion_intended')).flatMap((event) => streamsNamed(event, 'streams')));
  for (const stream of tombstoned) expect(intents).toContain(stream);
  return tombstoned;
};

describe.each(STORES)('a verified deletion records its intent before the first tombstone and is completed by a re-run (%s)', (_name, open) => {
  it.each([
    [0, 'root'],
    [2, 'root'],
    [3, 'subsub'],
  ] as const)('killed after %i tombstone(s): the intent names every stream; deleting root again completes it and writes the outcome (%s asked first)', async (cut, again) => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);

    await expect(deleteSession(createLedger(killedAfter(store, cut)), 'root', { now: now(), retry: ONCE })).rejects.toMatchObject({ type: 'store_unavailable' });

    const [intent] = await records(store, 'retention.deletion_intended');
    expect(streamsNamed(intent!, 'streams')).toEqual(['session-subsub', 'session-sub', 'session-root-2', 'session-root']);
    expect(intent!.data).toMatchObject({ rootId: 'root', reason: 'delete', streams: [{ stream: 'session-subsub', revision: 1, chainHead: expect.any(String) }, {}, {}, {}] });
    expect(await everyTombstoneAudited(store)).toHaveLength(cut);
    expect(await records(store, 'retention.deleted')).toHaveLength(0);
    expect((await pendingIntents(store)).map((pending) => pending.id)).toEqual([intent!.id]);

    const ledger = createLedger(store);
    if (again !== 'root') {
      // another conversation's id (subsub, a delegated grandchild, gone already) does not finish root's deletion: it says which does (outside test, session 24)
      await expect(deleteSession(ledger, again, { now: now() })).rejects.toMatchObject({ type: 'precondition_failed', message: expect.stringContaining('delete root to finish it') });
    }
    const result = await deleteSession(ledger, 'root', { now: now() });

    expect(result.deleted).toEqual(['session-subsub', 'session-sub', 'session-root-2', 'session-root']);
    expect(await everyTombstoneAudited(store)).toEqual(COVERED);
    const [outcome] = await records(store, 'retention.deleted');
    expect(outcome!.data).toMatchObject({ intent: intent!.id, complete: true, kept: [], reason: 'delete' });
    expect(streamsNamed(outcome!, 'deleted')).toEqual(result.deleted);
    expect(await pendingIntents(store)).toEqual([]);
    expect((await ledger.verify()).broken).toBeNull();
    expect((await store.readStream('session-br')).length).toBeGreaterThan(0);
  });

  it('export --delete-after-verified killed between tombstones: the same command completes it from the verified file; another --out is refused', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'root.md');
    await expect(exportAndDelete(createLedger(killedAfter(store, 1)), 'root', { format: 'markdown', out, now: now(), retry: ONCE })).rejects.toMatchObject({
      type: 'store_unavailable',
    });
    const bytes = readFileSync(out);
    const ledger = createLedger(store);

    await expect(exportAndDelete(ledger, 'root', { format: 'markdown', out: join(scratchDir(), 'other.md'), now: now() })).rejects.toMatchObject({
      type: 'precondition_failed',
    });
    const result = await exportAndDelete(ledger, 'root', { format: 'markdown', out, now: now() });

    expect(result).toMatchObject({ file: out, format: 'markdown', view: 'display', deleted: ['session-subsub', 'session-sub', 'session-root-2', 'session-root'] });
    expect(result.streams.map((s) => s.stream)).toEqual(COVERED);
    expect(readFileSync(out).equals(bytes)).toBe(true);
    const [outcome] = await records(store, 'retention.deleted');
    expect(outcome!.data).toMatchObject({ reason: 'export', complete: true, export: { file: out, digest: result.digest, fileSha256: result.fileSha256 } });
    expect(await everyTombstoneAudited(store)).toEqual(COVERED);
  });

  it('an export file changed since it was verified: the re-run deletes nothing more (verification_failed)', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'root.md');
    await expect(exportAndDelete(createLedger(killedAfter(store, 1)), 'root', { format: 'markdown', out, now: now(), retry: ONCE })).rejects.toBeTruthy();
    writeFileSync(out, `${readFileSync(out, 'utf8')}tampered\n`);

    await expect(exportAndDelete(createLedger(store), 'root', { format: 'markdown', out, now: now() })).rejects.toMatchObject({ type: 'verification_failed' });
    expect(await tombstonedOf(store, COVERED)).toEqual(['session-subsub']);
    expect(await pendingIntents(store)).toHaveLength(1);
  });

  it('a stream that moved after the kill refuses the completion (partial, audited); the intent is closed and the same deletion goes on afresh', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    await expect(deleteSession(createLedger(killedAfter(store, 2)), 'root', { now: now(), retry: ONCE })).rejects.toBeTruthy();
    await appendMessage(context, 'root-2', { role: 'user', content: 'arrived after the kill' });
    const ledger = createLedger(store);

    // no If-Match ("whatever is current"): one call, not a partial_deletion asking to delete again
    expect((await deleteSession(ledger, 'root', { now: now() })).deleted).toEqual(['session-root-2', 'session-root']);
    expect(await pendingIntents(store)).toEqual([]);
    const outcomes = await records(store, 'retention.deleted');
    expect(outcomes.map((outcome) => outcome.data)).toMatchObject([
      { complete: false, deleted: ['session-subsub', 'session-sub'] },
      { complete: true, deleted: ['session-root-2', 'session-root'] },
    ]);
    expect(await everyTombstoneAudited(store)).toEqual(COVERED);
  });

  it('a prune killed between tombstones is finished by the next prune', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const later = new Date(now().getTime() + 40 * 86_400_000);
    const killed = await pruneSessions(createLedger(killedAfter(store, 2)), { olderThanMs: 86_400_000, now: later, retry: ONCE });
    expect(killed.failed).toEqual([{ id: 'root', error: expect.objectContaining({ type: 'store_unavailable' }) }]);
    expect(await everyTombstoneAudited(store)).toEqual(['session-subsub']);

    const result = await pruneSessions(createLedger(store), { olderThanMs: 86_400_000, now: later });

    expect(result).toMatchObject({ failed: [], deleted: ['root'], streams: ['session-subsub', 'session-sub', 'session-root-2', 'session-root'] });
    expect(await everyTombstoneAudited(store)).toEqual(COVERED);
    expect(await pendingIntents(store)).toEqual([]);
  });

  it('a prune killed after its intent, then the conversation written to: the next prune keeps it as active, not failed (outside test, session 24)', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const later = new Date(now().getTime() + 40 * 86_400_000);
    await pruneSessions(createLedger(killedAfter(store, 0)), { olderThanMs: 86_400_000, now: later, retry: ONCE });
    const [killed] = await pendingIntents(store);
    const target = killed!.plan.rootId;
    await appendMessage(context, target === 'root' ? 'root-2' : target, { role: 'user', content: 'written after the kill' });

    const result = await pruneSessions(createLedger(store), { olderThanMs: 86_400_000, now: later });

    expect(result).toMatchObject({ failed: [], skipped_active: [target] });
    expect(result.deleted).not.toContain(target);
    expect(await tombstonedOf(store, killed!.plan.streams.map(({ stream }) => stream))).toEqual([]);
    expect(await pendingIntents(store)).toEqual([]);
  });
});

describe.each(STORES.filter(([name]) => name !== 'eventstoredb'))('an open intent of which nothing went (%s)', (_name, open) => {
  it('killed before its first tombstone, then the session was written: the next delete closes that intent (abandoned) and deletes afresh', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    await expect(deleteSession(createLedger(killedAfter(store, 0)), 'root', { now: now(), retry: ONCE })).rejects.toMatchObject({ type: 'store_unavailable' });
    const [intent] = await records(store, 'retention.deletion_intended');
    await appendMessage(context, 'subsub', { role: 'user', content: 'written after the kill' });

    const result = await deleteSession(createLedger(store), 'root', { now: now() });

    expect(result.deleted).toEqual(['session-subsub', 'session-sub', 'session-root-2', 'session-root']);
    expect((await records(store, 'retention.deletion_abandoned')).map((event) => (event.data as { intent: string }).intent)).toEqual([intent!.id]);
    const [outcome] = await records(store, 'retention.deleted');
    expect((outcome!.data as { intent: string }).intent).not.toBe(intent!.id);
    expect(await pendingIntents(store)).toEqual([]);
  });
});
