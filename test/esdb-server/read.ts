import type { ServerWritableStream } from '@grpc/grpc-js';
import { isLedgerError, type EventStore, type RecordedEvent } from '@session-ledger/core';
import { streams, type StreamsPb } from './pb.js';
import { invalidArgument, streamDeletedError, unknown } from './rpcErrors.js';
import { serverFilterOf } from './filter.js';
import { subscribe } from './subscribe.js';
import { identifierOf, readEventOf, storePositionOf, streamNameOf, type Layout } from './wire.js';

type ReadCall = ServerWritableStream<StreamsPb.ReadReq, StreamsPb.ReadResp>;

const Options = () => streams.ReadReq.Options;


const readStreamEvents = async (store: EventStore, call: ReadCall, options: StreamsPb.ReadReq.Options): Promise<RecordedEvent[] | null> => {
  const stream = options.getStream()!;
  const name = streamNameOf(stream.getStreamIdentifier());
  const backwards = options.getReadDirection() === Options().ReadDirection.BACKWARDS;
  const Case = Options().StreamOptions.RevisionOptionCase;
  const revisionCase = stream.getRevisionOptionCase();
  // START is revision 0 and END the last revision, in either direction, as on the server.
  const fromRevision =
    revisionCase === Case.REVISION ? BigInt(stream.getRevision()) : revisionCase === Case.END ? ('end' as const) : backwards ? 0n : ('start' as const);
  try {
    return await store.readStream(name, { direction: backwards ? 'backwards' : 'forwards', fromRevision, maxCount: Number(options.getCount()) });
  } catch (error) {
    if (isLedgerError(error, 'stream_not_found')) {
      call.write(new streams.ReadResp().setStreamNotFound(new streams.ReadResp.StreamNotFound().setStreamIdentifier(identifierOf(name))));
      return null;
    }
    if (isLedgerError(error, 'stream_deleted')) throw streamDeletedError(name);
    throw error;
  }
};

/** $all reads: forwards from a position includes it; backwards from a position excludes it. */
const readAllEvents = async (store: EventStore, layout: Layout, options: StreamsPb.ReadReq.Options): Promise<RecordedEvent[]> => {
  const all = options.getAll()!;
  const backwards = options.getReadDirection() === Options().ReadDirection.BACKWARDS;
  const Case = Options().AllOptions.AllOptionCase;
  const count = Number(options.getCount());
  const filter = options.getFilterOptionCase() === Options().FilterOptionCase.FILTER ? serverFilterOf(options.getFilter()!) : null;
  const keep = (events: RecordedEvent[]) => (filter ? events.filter(filter.matches) : events).slice(0, count);
  const limit = filter ? undefined : count;
  if (all.getAllOptionCase() === Case.START) return backwards ? [] : keep(await store.readAll({ maxCount: limit }));
  if (all.getAllOptionCase() === Case.END) return backwards ? keep(await store.readAll({ direction: 'backwards', maxCount: limit })) : [];
  const from = storePositionOf(layout, all.getPosition());
  if (!backwards) return keep(await store.readAll({ fromPosition: from, maxCount: limit }));
  if (from <= 1n) return [];
  return keep(await store.readAll({ direction: 'backwards', fromPosition: from - 1n, maxCount: limit }));
};

/** Streams.Read: stream and $all reads, and (with the subscription option) catch-up subscriptions. */
export const readHandler = (store: EventStore, layout: Layout) => (call: ReadCall) => {
  const run = async () => {
    const options = call.request.getOptions();
    if (!options) throw invalidArgument('Read needs options');
    if (!options.hasUuidOption()) throw invalidArgument(' `uuidOption` is a required argument of type UUIDOption');
    const structured = options.getUuidOption()!.hasStructured();
    const StreamCase = Options().StreamOptionCase;
    if (options.getStreamOptionCase() === StreamCase.STREAM_OPTION_NOT_SET) throw invalidArgument('Read needs a stream or $all');
    if (options.getCountOptionCase() === Options().CountOptionCase.SUBSCRIPTION) return subscribe(store, layout, call, options, structured);
    const events =
      options.getStreamOptionCase() === StreamCase.STREAM
        ? await readStreamEvents(store, call, options)
        : await readAllEvents(store, layout, options);
    for (const event of events ?? []) {
      if (call.cancelled) return;
      call.write(new streams.ReadResp().setEvent(readEventOf(layout, event, structured)));
    }
  };
  run().then(
    () => call.end(),
    (error: Error) => call.emit('error', 'code' in error ? error : unknown(error.message)),
  );
};
