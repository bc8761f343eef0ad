import type { RecordedEvent } from '@session-ledger/core';
import { shared, streams, type SharedPb, type StreamsPb } from './pb.js';
import { invalidPosition } from './rpcErrors.js';

/**
 * Positions on the wire are the in-memory store's positions times a stride, so that, as on a real
 * server (whose positions are byte offsets in the log), most numbers are not the start of a record.
 */
export interface Layout {
  stride: bigint;
  /** Which checkpoint ends a filtered catch-up (EsdbTestServerOptions.catchUpCheckpoint). */
  catchUpCheckpoint: 'last-event' | 'end-of-log';
  /** The most bytes one append may carry (EsdbTestServerOptions.maxAppendSize). */
  maxAppendSize: number;
}

export const toWire = (layout: Layout, position: bigint): bigint => position * layout.stride;

/** The store position at a wire position, or null when no record starts there. */
export const fromWire = (layout: Layout, wire: bigint): bigint | null => (wire % layout.stride === 0n ? wire / layout.stride : null);

export const streamNameOf = (identifier: SharedPb.StreamIdentifier | undefined): string =>
  Buffer.from(identifier?.getStreamName_asU8() ?? new Uint8Array()).toString('utf8');

export const identifierOf = (name: string): SharedPb.StreamIdentifier =>
  new shared.StreamIdentifier().setStreamName(Uint8Array.from(Buffer.from(name, 'utf8')));

const signed64 = (value: bigint) => BigInt.asIntN(64, value).toString();

export const uuidOf = (id: string, structured: boolean): SharedPb.UUID => {
  const uuid = new shared.UUID();
  if (!structured) return uuid.setString(id);
  const hex = id.replace(/-/g, '');
  const bits = new shared.UUID.Structured()
    .setMostSignificantBits(signed64(BigInt(`0x${hex.slice(0, 16)}`)))
    .setLeastSignificantBits(signed64(BigInt(`0x${hex.slice(16)}`)));
  return uuid.setStructured(bits);
};

export const idOf = (uuid: SharedPb.UUID | undefined): string => {
  if (!uuid) return '';
  if (uuid.hasString()) return uuid.getString();
  const bits = uuid.getStructured();
  if (!bits) return '';
  const most = BigInt.asUintN(64, BigInt(bits.getMostSignificantBits())).toString(16).padStart(16, '0');
  const least = BigInt.asUintN(64, BigInt(bits.getLeastSignificantBits())).toString(16).padStart(16, '0');
  const hex = most + least;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** .NET ticks (100 ns) since the Unix epoch, as the server reports `created`. */
const ticksOf = (iso: string) => (BigInt(Date.parse(iso)) * 10_000n).toString();

/** A stored event as the server sends it: JSON data and custom metadata as UTF-8 bytes. */
export const readEventOf = (layout: Layout, event: RecordedEvent, structuredIds: boolean): StreamsPb.ReadResp.ReadEvent => {
  const position = toWire(layout, event.position).toString();
  const recorded = new streams.ReadResp.ReadEvent.RecordedEvent()
    .setId(uuidOf(event.id, structuredIds))
    .setStreamIdentifier(identifierOf(event.streamName))
    .setStreamRevision(event.revision.toString())
    .setCommitPosition(position)
    .setPreparePosition(position)
    .setData(Buffer.from(JSON.stringify(event.data), 'utf8'))
    .setCustomMetadata(Buffer.from(JSON.stringify(event.metadata), 'utf8'));
  const map = recorded.getMetadataMap();
  map.set('type', event.type);
  map.set('created', ticksOf(event.created));
  map.set('content-type', 'application/json');
  return new streams.ReadResp.ReadEvent().setEvent(recorded).setCommitPosition(position);
};

/** ESDB's numeric expected versions, as its error trailers carry them. */
export const EXPECTED_NUMBER = { no_stream: -1n, any: -2n, stream_exists: -4n } as const;

/** A $all position from the wire; a position inside a record is refused, as the server does. */
export const storePositionOf = (layout: Layout, position: StreamsPb.ReadReq.Options.Position | undefined): bigint => {
  const stored = fromWire(layout, BigInt(position?.getCommitPosition() ?? '0'));
  if (stored === null) throw invalidPosition();
  return stored;
};
