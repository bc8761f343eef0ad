import { randomUUID } from 'node:crypto';
import type { sendUnaryData, ServerUnaryCall } from '@grpc/grpc-js';
import { isLedgerError, type EventStore, type ExpectedRevision } from '@session-ledger/core';
import { shared, streams, type StreamsPb } from './pb.js';
import { invalidArgument, streamDeletedError, unknown, wrongExpectedVersionError } from './rpcErrors.js';
import { EXPECTED_NUMBER, streamNameOf, toWire, type Layout } from './wire.js';

type Options = StreamsPb.DeleteReq.Options | StreamsPb.TombstoneReq.Options;

const expectedOf = (options: Options): ExpectedRevision => {
  const Case = streams.DeleteReq.Options.ExpectedStreamRevisionCase;
  switch (options.getExpectedStreamRevisionCase()) {
    case Case.REVISION:
      return BigInt(options.getRevision());
    case Case.NO_STREAM:
      return 'no_stream';
    case Case.STREAM_EXISTS:
      return 'stream_exists';
    case Case.ANY:
      return 'any';
    default:
      throw invalidArgument('No expected stream revision');
  }
};

const lastRevision = async (store: EventStore, stream: string): Promise<bigint> => {
  try {
    const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    return last?.revision ?? -1n;
  } catch {
    return -1n;
  }
};

/**
 * Delete and tombstone decided by the backing store; conflicts and deleted streams become
 * FAILED_PRECONDITION with the `exception` trailers. A soft delete also writes the stream's
 * `$$<stream>` metadata event ($tb, truncate before), as the server does, and reports its position.
 */
const remove = (store: EventStore, layout: Layout, hard: boolean) => async (options: Options | undefined) => {
  if (!options) throw invalidArgument('Delete needs options');
  const stream = streamNameOf(options.getStreamIdentifier());
  const expected = expectedOf(options);
  const last = await lastRevision(store, stream);
  try {
    if (hard) await store.tombstoneStream(stream, { expectedRevision: expected });
    else await store.deleteStream(stream, { expectedRevision: expected });
  } catch (error) {
    if (isLedgerError(error, 'wrong_expected_version')) {
      const actual = error.details.actual === 'no_stream' ? -1n : BigInt(error.details.actual);
      const wanted = typeof expected === 'bigint' ? expected : EXPECTED_NUMBER[expected];
      throw wrongExpectedVersionError(hard ? 'Tombstone' : 'Delete', stream, wanted, actual);
    }
    if (isLedgerError(error, 'stream_deleted')) throw streamDeletedError(stream);
    throw unknown((error as Error).message);
  }
  if (hard) return null;
  const metadata = await store.appendToStream(`$$${stream}`, [
    { id: randomUUID(), type: '$metadata', data: { $tb: Number(last + 1n) } },
  ]);
  return toWire(layout, metadata.position).toString();
};

export const deleteHandler =
  (store: EventStore, layout: Layout) =>
  (call: ServerUnaryCall<StreamsPb.DeleteReq, StreamsPb.DeleteResp>, callback: sendUnaryData<StreamsPb.DeleteResp>) => {
    remove(store, layout, false)(call.request.getOptions()).then(
      (position) =>
        callback(
          null,
          position === null
            ? new streams.DeleteResp().setNoPosition(new shared.Empty())
            : new streams.DeleteResp().setPosition(new streams.DeleteResp.Position().setCommitPosition(position).setPreparePosition(position)),
        ),
      (error: Error) => callback(error as never),
    );
  };

export const tombstoneHandler =
  (store: EventStore, layout: Layout) =>
  (call: ServerUnaryCall<StreamsPb.TombstoneReq, StreamsPb.TombstoneResp>, callback: sendUnaryData<StreamsPb.TombstoneResp>) => {
    remove(store, layout, true)(call.request.getOptions()).then(
      () => callback(null, new streams.TombstoneResp().setNoPosition(new shared.Empty())),
      (error: Error) => callback(error as never),
    );
  };
