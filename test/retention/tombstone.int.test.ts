import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, storeUnavailable, wrongExpectedVersion, type EventStore } from '@session-ledger/core';
import { AUDIT_STREAM, deleteCovered, readCoverage, tombstoneAll, type CoveredStream } from '@session-ledger/retention';
import { buildConversation, COVERED, wrapStore, writerOn } from './helpers.js';

/** Three one-event streams a, b, c as a coverage would name them. */
const threeStreams = async (): Promise<{ store: EventStore; streams: CoveredStream[] }> => {
  const store = createMemoryStore();
  const streams: CoveredStream[] = [];
  for (const name of ['a', 'b', 'c']) {
    const { nextExpectedRevision } = await store.appendToStream(`session-${name}`, [{ id: crypto.randomUUID(), type: 't', data: {} }]);
    streams.push({ stream: `session-${name}`, sessionId: name, revision: nextExpectedRevision, chainHead: null });
  }
  return { store, streams };
};

/** The store with the tombstone of `stream` failing with `error`. */
const failingAt = (store: EventStore, stream: string, error: unknown) =>
  wrapStore(store, {
    tombstoneStream: (name, options) => (name === stream ? Promise.reject(error) : store.tombstoneStream(name, options)),
  });

describe('tombstoneAll: what a stopped deletion reports', () => {
  it('deletes every stream in order, counting each', async () => {
    const { store, streams } = await threeStreams();
    const counts: number[] = [];

    const outcome = await tombstoneAll(store, streams, { onDeleted: (done) => counts.push(done) });

    expect(outcome).toEqual({ deleted: ['session-a', 'session-b', 'session-c'], kept: [], failure: null, logged: [] }); // a store without a log records no deletion leaves
    expect(counts).toEqual([1, 2, 3]);
  });

  it('a stream that moved before anything was deleted: drift naming the revision read and the current one', async () => {
    const { store, streams } = await threeStreams();

    const outcome = await tombstoneAll(failingAt(store, 'session-a', wrongExpectedVersion('session-a', '0', '5')), streams);

    expect(outcome.deleted).toEqual([]);
    expect(outcome.kept).toEqual(['session-a', 'session-b', 'session-c']);
    expect(outcome.failure).toMatchObject({ type: 'drift', details: { stream: 'session-a', exported: '0', current: '5' } });
  });

  it('a stream already deleted before anything was deleted: drift with current deleted', async () => {
    const { store, streams } = await threeStreams();
    await store.tombstoneStream('session-a');

    const outcome = await tombstoneAll(store, streams);

    expect(outcome.failure).toMatchObject({ type: 'drift', details: { stream: 'session-a', current: 'deleted' } });
  });

  it('another store error before anything was deleted is returned as it is; a non-ledger error is thrown', async () => {
    const { store, streams } = await threeStreams();
    const unavailable = storeUnavailable('gone');

    expect((await tombstoneAll(failingAt(store, 'session-a', unavailable), streams)).failure).toBe(unavailable);
    await expect(tombstoneAll(failingAt(store, 'session-a', new TypeError('bug')), streams)).rejects.toThrow('bug');
  });

  it('a stream that moved part way: partial_deletion saying what went, what stayed and why', async () => {
    const { store, streams } = await threeStreams();

    const outcome = await tombstoneAll(failingAt(store, 'session-b', wrongExpectedVersion('session-b', '0', '1')), streams);

    expect(outcome).toMatchObject({ deleted: ['session-a'], kept: ['session-b', 'session-c'] });
    expect(outcome.failure).toMatchObject({
      type: 'partial_deletion',
      message: 'Deleted session-a; kept session-b, session-c: session-b could not be deleted (read at revision 0, now 1); delete again to finish',
      details: { deleted: ['session-a'], kept: ['session-b', 'session-c'], stream: 'session-b', exported: '0', current: '1' },
    });
  });

  it('another failure part way: partial_deletion carrying its message, current unknown', async () => {
    const { store, streams } = await threeStreams();

    const outcome = await tombstoneAll(failingAt(store, 'session-c', new Error('disk full')), streams, {});

    expect(outcome.failure).toMatchObject({
      type: 'partial_deletion',
      message: 'Deleted session-a, session-b; kept session-c: session-c could not be deleted (disk full); delete again to finish',
      details: { stream: 'session-c', current: 'unknown' },
    });
  });
});

describe('deleteCovered: the audit record follows what was deleted', () => {
  const covered = async () => {
    const { context, store, now } = writerOn(createMemoryStore());
    await buildConversation(context);
    return { store, now, coverage: await readCoverage(store, 'root') };
  };

  it('reports progress against the number of covered streams', async () => {
    const { store, now, coverage } = await covered();
    const progress: Array<[number, number]> = [];

    await deleteCovered(createLedger(store), coverage, { reason: 'delete', now: now(), onDeleted: (done, total) => progress.push([done, total]) });

    expect(progress).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  });

  it('nothing deleted: no deletion record; the intent recorded first is closed as abandoned', async () => {
    const { store, now, coverage } = await covered();
    const refusing = wrapStore(store, { tombstoneStream: (name) => Promise.reject(wrongExpectedVersion(name, '0', '9')) });

    await expect(deleteCovered(createLedger(refusing), coverage, { reason: 'delete', now: now() })).rejects.toMatchObject({ type: 'drift' });
    expect((await store.readStream(AUDIT_STREAM)).map((event) => event.type)).toEqual(['retention.deletion_intended', 'retention.deletion_abandoned']);
  });

  it('deleted but the audit record could not be appended: the error says what was deleted', async () => {
    const { store, now, coverage } = await covered();
    // The intent goes in before the first tombstone; the disk fills up after it.
    let auditAppends = 0;
    const noAudit: EventStore = {
      ...store,
      appendToStream: (stream, events, options) =>
        stream === AUDIT_STREAM && (auditAppends += 1) > 1 ? Promise.reject(storeUnavailable('audit disk full')) : store.appendToStream(stream, events, options),
    };

    const failure = await deleteCovered(createLedger(noAudit), coverage, { reason: 'delete', now: now() }).catch((error: unknown) => error);

    expect(failure).toMatchObject({ type: 'store_unavailable', message: expect.stringMatching(/^audit disk full; deleted session-\S+(, session-\S+){3} but could not append the audit record \(its intent is recorded/) });
    for (const stream of COVERED) await expect(store.readStream(stream)).rejects.toMatchObject({ type: 'stream_deleted' });
  });
});
