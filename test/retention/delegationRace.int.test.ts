import { describe, expect, it } from 'vitest';
import { createLedger, readStreamState, type EventStore } from '@session-ledger/core';
import { deleteSession } from '@session-ledger/retention';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { holdingStartOf, pausedDeletion, STORES, writerOn } from './helpers.js';

/**
 * A delegated child started while its parent is deleted (outside test, session 24: 1 in 250 racing
 * HTTP rounds left the child started, writable and listed, its parent answering 410). startSession
 * writes `session.child_linked` in the parent, then the child's start; a deletion reading between the
 * two saw no child to delete. As for a compression child, each side now checks the other after its
 * own write.
 */
describe.each(STORES)('a delegated child started while its parent is deleted (%s)', (_name, open) => {
  /** A conversation `p`, and a delegation of child `d` whose start waits for `childStart`. */
  const setUp = async () => {
    const base = open();
    const writer = writerOn(base);
    await startSession(writer.context, { id: 'p' });
    await appendMessage(writer.context, 'p', { role: 'user', content: 'the task' });
    const { store: slowChild, childStart, reached } = holdingStartOf(base, 'session-d');
    const starting = startSession({ ...writer.context, ledger: createLedger(slowChild) }, { id: 'd', parentId: 'p', link: 'delegation' });
    await reached.opened; // the link is stored in p; d is not started
    return { base, writer, childStart, starting };
  };
  const childState = async (store: EventStore) => (await readStreamState(store, 'session-d')).state;

  it('the deletion ends before the child starts: the child id is fenced and the start answers session_deleted', async () => {
    const { base, writer, childStart, starting } = await setUp();

    expect((await deleteSession(createLedger(base), 'p', { now: writer.now() })).deleted).toEqual(['session-p']);
    expect(await childState(base)).toBe('tombstoned');
    childStart.open();

    await expect(starting).rejects.toMatchObject({ type: 'session_deleted' });
    expect(await childState(base)).toBe('tombstoned');
  });

  it('the child starts between the deletion\'s read and its tombstones: it is deleted with its parent and the outcome names it', async () => {
    const { base, writer, childStart, starting } = await setUp();
    const { deleting, read, tombstones } = pausedDeletion(base, writer.now());
    await read.opened;
    childStart.open();
    await starting; // started while the parent still stood
    tombstones.open();

    expect((await deleting).deleted).toEqual(['session-p', 'session-d']);
    expect(await childState(base)).toBe('tombstoned');
  });

  it('the parent deleted before the child is linked: startSession refuses, nothing stored under the child id', async () => {
    const base = open();
    const { context, now } = writerOn(base);
    await startSession(context, { id: 'p' });
    await deleteSession(createLedger(base), 'p', { now: now() });
    await expect(startSession(context, { id: 'd', parentId: 'p', link: 'delegation' })).rejects.toMatchObject({ type: 'session_deleted' });
    expect(await childState(base)).toBe('absent');
  });
});
