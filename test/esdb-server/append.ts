import type { sendUnaryData, ServerDuplexStream, ServerReadableStream } from '@grpc/grpc-js';
import { status as Code } from '@grpc/grpc-js';
import {
  isJsonObject,
  isLedgerError,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  type JsonObject,
  type JsonValue,
} from '@session-ledger/core';
import { Any, ProtoEmpty, shared, status, streams, type StreamsPb } from './pb.js';
import { invalidArgument, maxAppendSizeExceeded, missingMetadata, streamDeletedError, unknown } from './rpcErrors.js';
import { idOf, identifierOf, streamNameOf, toWire, type Layout } from './wire.js';

interface Proposed {
  getId(): import('./pb.js').SharedPb.UUID | undefined;
  getMetadataMap(): { get(key: string): string | undefined };
  getData_asU8(): Uint8Array;
  getCustomMetadata_asU8(): Uint8Array;
}

const json = (bytes: Uint8Array, what: string): JsonValue => {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as JsonValue;
  } catch {
    throw invalidArgument(`The ${what} of an application/json event is not JSON`);
  }
};

/**
 * The server's MaxAppendSize check (Streams.Append.cs: the proposed messages' data, metadata and
 * type summed, against 1 MiB by default): over it, the whole append is refused with
 * `maximum-append-size-exceeded`. Counted here from the bytes on the wire.
 */
export const checkAppendSize = (layout: Layout, messages: readonly Proposed[]): void => {
  let size = 0;
  for (const message of messages) {
    size += message.getData_asU8().length + message.getCustomMetadata_asU8().length + Buffer.byteLength(message.getMetadataMap().get('type') ?? '');
    if (size > layout.maxAppendSize) throw maxAppendSizeExceeded(layout.maxAppendSize);
  }
};

/** A proposed message as an event for the backing store (this double keeps JSON events only). */
export const toEventData = (message: Proposed): EventData => {
  const meta = message.getMetadataMap();
  const type = meta.get('type');
  if (type === undefined) throw missingMetadata('type');
  const contentType = meta.get('content-type');
  if (contentType === undefined) throw missingMetadata('content-type');
  if (contentType !== 'application/json') throw invalidArgument('This test double stores application/json events only');
  const custom = message.getCustomMetadata_asU8();
  const metadata = custom.length === 0 ? {} : json(custom, 'metadata');
  if (!isJsonObject(metadata)) throw invalidArgument('This test double stores metadata that is a JSON object only');
  return { id: idOf(message.getId()), type, data: json(message.getData_asU8(), 'data'), metadata: metadata as JsonObject };
};

type Outcome =
  | { kind: 'success'; revision: bigint; position: bigint | null }
  | { kind: 'conflict'; expected: ExpectedRevision; current: bigint | null };

/** One append against the backing store, with ESDB's outcomes: success, conflict, or an RPC error. */
export const appendEvents = async (
  store: EventStore,
  layout: Layout,
  stream: string,
  events: EventData[],
  expected: ExpectedRevision,
): Promise<Outcome> => {
  try {
    const result = await store.appendToStream(stream, events, { expectedRevision: expected });
    const written = result.nextExpectedRevision >= 0n;
    return { kind: 'success', revision: result.nextExpectedRevision, position: written ? toWire(layout, result.position) : null };
  } catch (error) {
    if (isLedgerError(error, 'wrong_expected_version')) {
      const actual = error.details.actual;
      return { kind: 'conflict', expected, current: actual === 'no_stream' ? null : BigInt(actual) };
    }
    if (isLedgerError(error, 'stream_deleted')) throw streamDeletedError(stream);
    if (isLedgerError(error, 'invalid_input')) throw invalidArgument(error.message);
    throw unknown((error as Error).message);
  }
};

const expectedOfAppend = (options: StreamsPb.AppendReq.Options): ExpectedRevision => {
  const Case = streams.AppendReq.Options.ExpectedStreamRevisionCase;
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

const appendResponse = (outcome: Outcome): StreamsPb.AppendResp => {
  const response = new streams.AppendResp();
  if (outcome.kind === 'success') {
    const success = new streams.AppendResp.Success();
    if (outcome.revision < 0n) success.setNoStream(new shared.Empty());
    else success.setCurrentRevision(outcome.revision.toString());
    if (outcome.position === null) success.setNoPosition(new shared.Empty());
    else {
      const position = outcome.position.toString();
      success.setPosition(new streams.AppendResp.Position().setCommitPosition(position).setPreparePosition(position));
    }
    return response.setSuccess(success);
  }
  // Conflicts are an answer, not an RPC error: both the current and the 20.6.0 fields, as ESDB sends.
  const conflict = new streams.AppendResp.WrongExpectedVersion();
  const { expected, current } = outcome;
  if (expected === 'any') conflict.setExpectedAny(new shared.Empty()).setAny2060(new shared.Empty());
  else if (expected === 'stream_exists') conflict.setExpectedStreamExists(new shared.Empty()).setStreamExists2060(new shared.Empty());
  else if (expected === 'no_stream') conflict.setExpectedNoStream(new shared.Empty()).setExpectedRevision2060(Number.MAX_SAFE_INTEGER);
  else conflict.setExpectedRevision(expected.toString()).setExpectedRevision2060(Number(expected));
  if (current === null) conflict.setCurrentNoStream(new shared.Empty()).setNoStream2060(new shared.Empty());
  else conflict.setCurrentRevision(current.toString()).setCurrentRevision2060(Number(current));
  return response.setWrongExpectedVersion(conflict);
};

/** Streams.Append: options first, then the proposed messages; one response at the end. */
export const appendHandler =
  (store: EventStore, layout: Layout) =>
  (call: ServerReadableStream<StreamsPb.AppendReq, StreamsPb.AppendResp>, callback: sendUnaryData<StreamsPb.AppendResp>) => {
    const requests: StreamsPb.AppendReq[] = [];
    call.on('data', (request: StreamsPb.AppendReq) => requests.push(request));
    call.on('error', () => undefined);
    call.on('end', () => {
      const run = async () => {
        const [head, ...rest] = requests;
        const options = head?.getOptions();
        if (!options) throw invalidArgument('The first append message must carry the options');
        const messages = rest.map((request) => {
          const message = request.getProposedMessage();
          if (!message) throw invalidArgument('Only proposed messages may follow the options');
          return message;
        });
        checkAppendSize(layout, messages);
        const events = messages.map(toEventData);
        const stream = streamNameOf(options.getStreamIdentifier());
        return appendResponse(await appendEvents(store, layout, stream, events, expectedOfAppend(options)));
      };
      run().then(
        (response) => callback(null, response),
        (error: Error) => callback(error as never),
      );
    });
  };

const packed = (code: number, message: string, bytes: Uint8Array, typeName: string) => {
  // google.rpc.Code and gRPC status codes share their numbers.
  const details = new Any();
  details.pack(bytes, typeName);
  return new status.Status().setCode(code).setMessage(message).setDetails(details);
};

const expectedOfBatch = (options: StreamsPb.BatchAppendReq.Options): ExpectedRevision => {
  const Case = streams.BatchAppendReq.Options.ExpectedStreamPositionCase;
  switch (options.getExpectedStreamPositionCase()) {
    case Case.STREAM_POSITION:
      return BigInt(options.getStreamPosition());
    case Case.NO_STREAM:
      return 'no_stream';
    case Case.STREAM_EXISTS:
      return 'stream_exists';
    default:
      return 'any';
  }
};

const batchResponse = async (
  store: EventStore,
  layout: Layout,
  options: StreamsPb.BatchAppendReq.Options,
  messages: StreamsPb.BatchAppendReq.ProposedMessage[],
): Promise<StreamsPb.BatchAppendResp> => {
  const stream = streamNameOf(options.getStreamIdentifier());
  const response = new streams.BatchAppendResp().setStreamIdentifier(identifierOf(stream));
  try {
    const expected = expectedOfBatch(options);
    checkAppendSize(layout, messages);
    const outcome = await appendEvents(store, layout, stream, messages.map(toEventData), expected);
    if (outcome.kind === 'success') {
      const success = new streams.BatchAppendResp.Success();
      if (outcome.revision < 0n) success.setNoStream(new ProtoEmpty());
      else success.setCurrentRevision(outcome.revision.toString());
      if (outcome.position === null) success.setNoPosition(new ProtoEmpty());
      else {
        const position = outcome.position.toString();
        success.setPosition(new shared.AllStreamPosition().setCommitPosition(position).setPreparePosition(position));
      }
      return response.setSuccess(success);
    }
    // Batch conflicts travel as a google.rpc.Status packing event_store.client.WrongExpectedVersion.
    const details = new shared.WrongExpectedVersion();
    if (outcome.current === null) details.setCurrentNoStream(new ProtoEmpty());
    else details.setCurrentStreamRevision(outcome.current.toString());
    if (expected === 'any') details.setExpectedAny(new ProtoEmpty());
    else if (expected === 'no_stream') details.setExpectedNoStream(new ProtoEmpty());
    else if (expected === 'stream_exists') details.setExpectedStreamExists(new ProtoEmpty());
    else details.setExpectedStreamPosition(expected.toString());
    return response.setError(packed(Code.ALREADY_EXISTS, 'WrongExpectedVersion', details.serializeBinary(), 'event_store.client.WrongExpectedVersion'));
  } catch (error) {
    const rpc = error as { code?: number; details?: string };
    if (rpc.code === Code.FAILED_PRECONDITION) {
      const deleted = new shared.StreamDeleted().setStreamIdentifier(identifierOf(stream));
      return response.setError(packed(Code.NOT_FOUND, 'StreamDeleted', deleted.serializeBinary(), 'event_store.client.StreamDeleted'));
    }
    const bad = new shared.BadRequest().setMessage(rpc.details ?? String(error));
    return response.setError(packed(Code.INVALID_ARGUMENT, 'BadRequest', bad.serializeBinary(), 'event_store.client.BadRequest'));
  }
};

/** Streams.BatchAppend: a long-lived duplex stream of appends, each keyed by a correlation id. */
export const batchAppendHandler =
  (store: EventStore, layout: Layout) => (call: ServerDuplexStream<StreamsPb.BatchAppendReq, StreamsPb.BatchAppendResp>) => {
    const open = new Map<string, { options: StreamsPb.BatchAppendReq.Options | undefined; messages: StreamsPb.BatchAppendReq.ProposedMessage[] }>();
    let chain = Promise.resolve();
    call.on('data', (request: StreamsPb.BatchAppendReq) => {
      const correlation = request.getCorrelationId();
      const key = idOf(correlation);
      const entry = open.get(key) ?? { options: request.getOptions(), messages: [] };
      open.set(key, entry);
      entry.messages.push(...request.getProposedMessagesList());
      if (!request.getIsFinal()) return;
      open.delete(key);
      chain = chain.then(async () => {
        const response = entry.options
          ? await batchResponse(store, layout, entry.options, entry.messages)
          : new streams.BatchAppendResp().setError(new status.Status().setCode(Code.INVALID_ARGUMENT as number).setMessage('No options'));
        if (!call.cancelled && call.writable) call.write(response.setCorrelationId(correlation));
      });
    });
    call.on('error', () => undefined);
    call.on('end', () => void chain.then(() => call.end()));
  };
