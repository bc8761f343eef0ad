import { describe, expect, it } from 'vitest';
import { createLedger, readStreamState, type EventStore } from '@session-ledger/core';
import { deleteSession } from '@session-ledger/retention';
import { appendMessage, compressSession, startSession } from '@session-ledger/sessions';
import { gate, holdingStartOf, pausedDeletion, STORES, wrapStore, writerOn } from './helpers.js';


/**
 * A compression racing a deletion (outside test, session 15: in 6 of 180 rounds over two servers the
 * compression's new child, holding the summary, outlived a deletion that answered 200). The
 * compression writes the parent's `session.continued`, then the child's start; a deletion reading
 * between the two sees no child. Each side checks the other after its own write, so the child goes in
 * both interleavings.
 */
describe.each(STORES)('a compression racing a deletion (%s)', (_name, open) => {
  /** A conversation `p` with a message, and a writer whose child start waits for `childStart`. */
  const setUp = async (killed = false) => {
    const base = open();
    const writer = writerOn(base);
    await startSession(writer.context, { id: 'p' });
    await appendMessage(writer.context, 'p', { role: 'user', content: 'a secret' });
    const { store: slowChild, childStart, reached } = holdingStartOf(base, 'session-c');
    // `killed`: the compression dies once its child is started, before it reads its parent again (kill -9 there).
    let childStarted = false;
    const killable: EventStore = wrapStore(slowChild, {
      appendToStream: async (stream, events, options) => {
        const result = await slowChild.appendToStream(stream, events, options);
        if (stream === 'session-c') childStarted = true;
        return result;
      },
      readStream: (stream, options) => {
        if (killed && childStarted && stream === 'session-p') throw new Error('killed');
        return slowChild.readStream(stream, options);
      },
    });
    const compressing = compressSession({ ...writer.context, ledger: createLedger(killable) }, 'p', { summary: 'SUMMARY OF A SECRET', childId: 'c' });
    await reached.opened; // the parent's session.continued is stored; the child is not started
    return { base, writer, childStart, compressing };
  };
  const childState = async (store: EventStore) => (await readStreamState(store, 'session-c')).state;


  it('the deletion ends before the child starts: the compression finds its parent gone, deletes the child and answers session_deleted', async () => {
    const { base, writer, childStart, compressing } = await setUp();

    const deleted = await deleteSession(createLedger(base), 'p', { now: writer.now() });
    expect(deleted.deleted).toEqual(['session-p']);
    childStart.open();

    await expect(compressing).rejects.toMatchObject({ type: 'session_deleted' });
    expect(await childState(base)).toBe('tombstoned');
  });

  it('the compression would be killed after starting its child, past the deletion\'s own check: the deletion fenced the child, which never starts', async () => {
    const { base, writer, childStart, compressing } = await setUp(true);
    const deleted = await deleteSession(createLedger(base), 'p', { now: writer.now() });
    expect(deleted.deleted).toEqual(['session-p']); // the child was not started when the deletion looked: nothing of it is listed
    expect(await childState(base)).toBe('tombstoned'); // its id fenced
    childStart.open();

    await expect(compressing).rejects.toMatchObject({ type: 'session_deleted', details: { sessionId: 'p' } });
    expect(await childState(base)).toBe('tombstoned');
    await expect(compressSession(writer.context, 'p', { summary: 'SUMMARY OF A SECRET' })).rejects.toMatchObject({ type: 'session_deleted' });
  });

  /** A deletion of `p` killed after its tombstones, before it fences the pending child (kill -9 there). */
  const killedBeforeFence = (base: EventStore, now: Date) =>
    deleteSession(
      createLedger(
        wrapStore(base, {
          tombstoneStream: async (stream, options) => {
            if (stream === 'session-c') throw new Error('killed');
            return base.tombstoneStream(stream, options);
          },
        }),
      ),
      'p',
      { now },
    );

  it('a deletion killed before its fence, then the compression killed after starting its child: run again with the same child id, it deletes the child', async () => {
    const { base, writer, childStart, compressing } = await setUp(true);
    await expect(killedBeforeFence(base, writer.now())).rejects.toThrow('killed');
    childStart.open();
    await expect(compressing).rejects.toThrow('killed');
    expect(await childState(base)).toBe('live'); // the orphan: it holds the deleted conversation's summary

    await expect(compressSession(writer.context, 'p', { summary: 'SUMMARY OF A SECRET', childId: 'c' })).rejects.toMatchObject({ type: 'session_deleted' });
    expect(await childState(base)).toBe('tombstoned');
  });

  it('run again, it leaves a child written to since, and any stream that is not its compression child', async () => {
    const { base, writer, childStart, compressing } = await setUp(true);
    await expect(killedBeforeFence(base, writer.now())).rejects.toThrow('killed');
    childStart.open();
    await expect(compressing).rejects.toThrow('killed');
    await appendMessage(writer.context, 'c', { role: 'user', content: 'written in the new tip' });
    await startSession(writer.context, { id: 'other' });

    await expect(compressSession(writer.context, 'p', { summary: 'SUMMARY OF A SECRET', childId: 'c' })).rejects.toMatchObject({ type: 'session_deleted' });
    await expect(compressSession(writer.context, 'p', { summary: 'x', childId: 'other' })).rejects.toMatchObject({ type: 'session_deleted' });
    expect(await childState(base)).toBe('live');
    expect((await readStreamState(base, 'session-other')).state).toBe('live');
  });

  it('the child starts between the deletion read and its tombstones: the deletion deletes it too and names it', async () => {
    const { base, writer, childStart, compressing } = await setUp();
    const { deleting, read, tombstones } = pausedDeletion(base, writer.now());
    await read.opened; // the deletion has read the conversation (the child not started) and waits at its first tombstone
    childStart.open();
    await expect(compressing).resolves.toMatchObject({ sessionId: 'c' }); // the parent was still stored
    tombstones.open();

    expect((await deleting).deleted.sort()).toEqual(['session-c', 'session-p']);
    expect(await childState(base)).toBe('tombstoned');
  });

  it('the child is written to before the deletion reaches it: that write was never read, so the child is kept and the deletion is partial', async () => {
    const { base, writer, childStart, compressing } = await setUp();
    const { deleting, read, tombstones } = pausedDeletion(base, writer.now());
    await read.opened;
    childStart.open();
    await compressing;
    await appendMessage(writer.context, 'c', { role: 'user', content: 'written in the new tip' });
    tombstones.open();

    await expect(deleting).rejects.toMatchObject({ type: 'partial_deletion', details: { deleted: ['session-p'], kept: ['session-c'] } });
    expect(await childState(base)).toBe('live');
    // The error names the way to finish, and it works (E-2: it said "delete again", which answers session_deleted).
    await expect(deleting).rejects.toThrow(/delete session c to finish$/);
    await expect(deleteSession(createLedger(base), 'p', { now: writer.now() })).rejects.toMatchObject({ type: 'session_deleted' });
    expect((await deleteSession(createLedger(base), 'c', { now: writer.now() })).deleted).toEqual(['session-c']);
    expect(await childState(base)).toBe('tombstoned');
  });
});
