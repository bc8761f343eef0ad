import { describe, expect, it } from 'vitest';
import { newId, type AppendResult } from '@session-ledger/core';
import type { ConformanceContext } from '../context.js';
import { expectLedgerError, idsOf, makeEvents, readOrError, uniqueStream } from '../helpers.js';

const expectNothingWritten = (result: AppendResult) => {
  if (result.written !== undefined) expect(result.written).toBe(false);
};

export const appendSection = ({ store }: ConformanceContext): void => {
  describe('appendToStream: expected revisions', () => {
    it('no_stream creates a stream and returns the next expected revision and commit position', async () => {
      const stream = uniqueStream();
      const batch = makeEvents(3);
      const result = await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(2n);
      const events = await store().readStream(stream);
      expect(idsOf(events)).toEqual(idsOf(batch));
      expect(events.map((event) => event.revision)).toEqual([0n, 1n, 2n]);
      expect(result.position).toBe(events[2]!.position);
    });

    it('no_stream on an existing stream is a WrongExpectedVersion', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(2), { expectedRevision: 'no_stream' });
      await expectLedgerError(store().appendToStream(stream, makeEvents(1), { expectedRevision: 'no_stream' }), 'wrong_expected_version', {
        stream,
        expected: 'no_stream',
        actual: '1',
      });
      expect(await store().readStream(stream)).toHaveLength(2);
    });

    it('stream_exists refuses a missing stream and appends to an existing one', async () => {
      const stream = uniqueStream();
      await expectLedgerError(store().appendToStream(stream, makeEvents(1), { expectedRevision: 'stream_exists' }), 'wrong_expected_version', {
        stream,
        expected: 'stream_exists',
        actual: 'no_stream',
      });
      expect(await readOrError(store(), stream)).toBe('stream_not_found');
      await store().appendToStream(stream, makeEvents(1), { expectedRevision: 'no_stream' });
      const result = await store().appendToStream(stream, makeEvents(2), { expectedRevision: 'stream_exists' });
      expect(result.nextExpectedRevision).toBe(2n);
    });

    it('an exact revision appends when it is the current revision', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(2), { expectedRevision: 'no_stream' });
      const result = await store().appendToStream(stream, makeEvents(1), { expectedRevision: 1n });
      expect(result.nextExpectedRevision).toBe(2n);
      expect((await store().readStream(stream)).map((event) => event.revision)).toEqual([0n, 1n, 2n]);
    });

    it('a stale or future exact revision is a WrongExpectedVersion carrying stream, expected and actual', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(3), { expectedRevision: 'no_stream' });
      await expectLedgerError(store().appendToStream(stream, makeEvents(1), { expectedRevision: 1n }), 'wrong_expected_version', {
        stream,
        expected: '1',
        actual: '2',
      });
      await expectLedgerError(store().appendToStream(stream, makeEvents(1), { expectedRevision: 7n }), 'wrong_expected_version', {
        stream,
        expected: '7',
        actual: '2',
      });
      expect(await store().readStream(stream)).toHaveLength(3);
    });

    it('an exact revision on a missing stream is a WrongExpectedVersion with actual no_stream', async () => {
      const stream = uniqueStream();
      await expectLedgerError(store().appendToStream(stream, makeEvents(1), { expectedRevision: 0n }), 'wrong_expected_version', {
        stream,
        expected: '0',
        actual: 'no_stream',
      });
      expect(await readOrError(store(), stream)).toBe('stream_not_found');
    });

    it('any appends to a missing stream and to an existing one, and is the default', async () => {
      const stream = uniqueStream();
      const first = await store().appendToStream(stream, makeEvents(2), { expectedRevision: 'any' });
      expect(first.nextExpectedRevision).toBe(1n);
      const second = await store().appendToStream(stream, makeEvents(1));
      expect(second.nextExpectedRevision).toBe(2n);
      expect(second.position > first.position).toBe(true);
    });

    it('records id, type, data and metadata exactly as given', async () => {
      const stream = uniqueStream();
      const event = {
        id: newId(),
        type: 'shape.tested',
        data: { text: 'héllo \u2603 "quoted"', nested: { list: [1, 2.5, -3, true, null], empty: {} }, zero: 0 },
        metadata: { correlationId: 'c-1', tags: ['a', 'b'] },
      };
      await store().appendToStream(stream, [event]);
      const [recorded] = await store().readStream(stream);
      expect(recorded).toMatchObject({ streamName: stream, id: event.id, type: event.type, revision: 0n });
      expect(recorded!.data).toEqual(event.data);
      expect(recorded!.metadata).toEqual(event.metadata);
      expect(typeof recorded!.position).toBe('bigint');
      expect(Number.isNaN(Date.parse(recorded!.created))).toBe(false);
    });
  });

  describe('appendToStream: all or nothing', () => {
    it('a batch holding one invalid event writes nothing, on a new stream', async () => {
      const stream = uniqueStream();
      const batch = [...makeEvents(2), { id: 'not-a-uuid', type: 'tested', data: {} }];
      await expectLedgerError(store().appendToStream(stream, batch, { expectedRevision: 'no_stream' }), 'invalid_input');
      expect(await readOrError(store(), stream)).toBe('stream_not_found');
    });

    it('a batch holding one invalid event writes nothing, on an existing stream', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(1));
      const batch = [...makeEvents(2), { id: newId(), type: '', data: {} }];
      await expectLedgerError(store().appendToStream(stream, batch, { expectedRevision: 0n }), 'invalid_input');
      expect(await store().readStream(stream)).toHaveLength(1);
      const next = await store().appendToStream(stream, makeEvents(1), { expectedRevision: 0n });
      expect(next.nextExpectedRevision).toBe(1n);
    });

    it('a refused batch writes none of its events', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(1));
      await expectLedgerError(store().appendToStream(stream, makeEvents(5), { expectedRevision: 3n }), 'wrong_expected_version');
      expect(await store().readStream(stream)).toHaveLength(1);
    });
  });

  describe('appendToStream: idempotent retry', () => {
    it('retrying a committed no_stream batch succeeds and writes nothing', async () => {
      const stream = uniqueStream();
      const batch = makeEvents(3);
      const first = await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      const retry = await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      expectNothingWritten(retry);
      expect(retry.nextExpectedRevision).toBe(2n);
      expect(retry.position).toBe(first.position);
      expect(idsOf(await store().readStream(stream))).toEqual(idsOf(batch));
    });

    it('retrying a committed batch at its exact revision succeeds and writes nothing', async () => {
      const stream = uniqueStream();
      const head = makeEvents(2);
      const batch = makeEvents(2, 'tested', 2);
      await store().appendToStream(stream, head, { expectedRevision: 'no_stream' });
      const first = await store().appendToStream(stream, batch, { expectedRevision: 1n });
      await store().appendToStream(stream, makeEvents(1), { expectedRevision: 3n });
      const retry = await store().appendToStream(stream, batch, { expectedRevision: 1n });
      expectNothingWritten(retry);
      expect(retry.nextExpectedRevision).toBe(3n);
      expect(retry.position).toBe(first.position);
      expect(await store().readStream(stream)).toHaveLength(5);
    });

    it('retrying a committed batch with any succeeds and writes nothing', async () => {
      const stream = uniqueStream();
      const batch = makeEvents(2);
      await store().appendToStream(stream, makeEvents(1));
      const first = await store().appendToStream(stream, batch, { expectedRevision: 'any' });
      const retry = await store().appendToStream(stream, batch, { expectedRevision: 'any' });
      expectNothingWritten(retry);
      expect(retry.nextExpectedRevision).toBe(first.nextExpectedRevision);
      expect(await store().readStream(stream)).toHaveLength(3);
    });

    it('a batch that partly overlaps committed events is a WrongExpectedVersion and writes nothing', async () => {
      const stream = uniqueStream();
      const batch = makeEvents(2);
      await store().appendToStream(stream, batch, { expectedRevision: 'no_stream' });
      const overlap = [batch[0]!, ...makeEvents(1)];
      await expectLedgerError(store().appendToStream(stream, overlap, { expectedRevision: 'no_stream' }), 'wrong_expected_version', { stream });
      await expectLedgerError(store().appendToStream(stream, overlap, { expectedRevision: 'any' }), 'wrong_expected_version', { stream });
      const longer = [...batch, ...makeEvents(1)];
      await expectLedgerError(store().appendToStream(stream, longer, { expectedRevision: 'no_stream' }), 'wrong_expected_version', { stream });
      expect(idsOf(await store().readStream(stream))).toEqual(idsOf(batch));
    });

    it('a batch that partly overlaps at its exact revision is a WrongExpectedVersion and writes nothing', async () => {
      const stream = uniqueStream();
      await store().appendToStream(stream, makeEvents(1), { expectedRevision: 'no_stream' });
      const batch = makeEvents(2, 'tested', 1);
      await store().appendToStream(stream, batch, { expectedRevision: 0n });
      await expectLedgerError(store().appendToStream(stream, [batch[0]!, ...makeEvents(1)], { expectedRevision: 0n }), 'wrong_expected_version', {
        stream,
        expected: '0',
        actual: '2',
      });
      expect(await store().readStream(stream)).toHaveLength(3);
    });
  });
};
