import { randomUUID } from 'node:crypto';
import type { ServerWritableStream } from '@grpc/grpc-js';
import { isLedgerError, type EventStore, type Subscription } from '@session-ledger/core';
import { streams, type StreamsPb } from './pb.js';
import { serverFilterOf } from './filter.js';
import { streamDeletedError } from './rpcErrors.js';
import { readEventOf, storePositionOf, streamNameOf, toWire, type Layout } from './wire.js';

type ReadCall = ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>;

const send = async (call: ReadCall, response: StreamsPb.ReadResp) => {
  if (!call.write(response)) await new Promise((resolve) => call.once('drain', resolve));
};

const open = (store: EventStore, layout: Layout, options: StreamsPb.ReadReq.Options): { subscription: Subscription; stream?: string } => {
  const Options = streams.ReadReq.Options;
  if (options.getStreamOptionCase() === Options.StreamOptionCase.STREAM) {
    const stream = options.getStream()!;
    const Case = Options.StreamOptions.RevisionOptionCase;
    const which = stream.getRevisionOptionCase();
    const fromRevision = which === Case.REVISION ? BigInt(stream.getRevision()) : which === Case.END ? ('end' as const) : ('start' as const);
    const name = streamNameOf(stream.getStreamIdentifier());
    return { subscription: store.subscribeToStream(name, { fromRevision }), stream: name };
  }
  const all = options.getAll()!;
  const Case = Options.AllOptions.AllOptionCase;
  const which = all.getAllOptionCase();
  const fromPosition = which === Case.POSITION ? storePositionOf(layout, all.getPosition()) : which === Case.END ? ('end' as const) : ('start' as const);
  return { subscription: store.subscribeToAll({ fromPosition }) };
};

/**
 * A catch-up subscription with the server's message sequence: a confirmation, the stored events,
 * one caught-up when it goes live, then live events. A filtered subscription to $all also gets
 * checkpoints: one as it finishes catching up (before caught-up), then one each time it has
 * considered a checkpoint interval's worth of events.
 */
export const subscribe = async (
  store: EventStore,
  layout: Layout,
  call: ReadCall,
  options: StreamsPb.ReadReq.Options,
  structured: boolean,
): Promise<void> => {
  const filtered = options.getFilterOptionCase() === streams.ReadReq.Options.FilterOptionCase.FILTER;
  const filter = filtered ? serverFilterOf(options.getFilter()!) : null;
  const { subscription, stream } = open(store, layout, options);
  call.on('cancelled', () => void subscription.close());
  const checkpoint = (position: bigint) => {
    const wire = toWire(layout, position).toString();
    return new streams.ReadResp().setCheckpoint(new streams.ReadResp.Checkpoint().setCommitPosition(wire).setPreparePosition(wire));
  };
  /** The catch-up's last checkpoint: the last event, or (where the next record starts, 0) as KurrentDB 24.10.0-24.10.4 send. */
  const caughtUpCheckpoint = (position: bigint) =>
    layout.catchUpCheckpoint === 'last-event'
      ? checkpoint(position)
      : new streams.ReadResp().setCheckpoint(new streams.ReadResp.Checkpoint().setCommitPosition(toWire(layout, position + 1n).toString()).setPreparePosition('0'));
  await send(call, new streams.ReadResp().setConfirmation(new streams.ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID())));
  let live = false;
  let considered = 0;
  try {
    for await (const item of subscription) {
      if (call.cancelled) break;
      if (item.kind === 'event') {
        if (!filter) {
          await send(call, new streams.ReadResp().setEvent(readEventOf(layout, item.event, structured)));
          continue;
        }
        considered += 1;
        if (filter.matches(item.event)) await send(call, new streams.ReadResp().setEvent(readEventOf(layout, item.event, structured)));
        if (considered >= filter.checkpointInterval) {
          considered = 0;
          await send(call, checkpoint(item.event.position));
        }
      } else if (item.kind === 'checkpoint') {
        if (filter && !live) await send(call, caughtUpCheckpoint(item.position));
      } else if (!live) {
        live = true;
        await send(call, new streams.ReadResp().setCaughtUp(new streams.ReadResp.CaughtUp()));
      }
    }
  } catch (error) {
    if (isLedgerError(error, 'stream_deleted')) throw streamDeletedError(stream ?? '$all');
    throw error;
  } finally {
    await subscription.close();
  }
};
