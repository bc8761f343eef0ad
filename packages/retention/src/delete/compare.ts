import type { Coverage } from '../coverage/coverage.js';
import { driftError } from '../errors.js';

/** The first covered stream whose revision or chain head moved between two reads, as a drift error; null when none did. */
export const streamDrift = (before: Coverage, after: Coverage) => {
  const now = new Map(after.streams.map((stream) => [stream.stream, stream]));
  for (const stream of before.streams) {
    const current = now.get(stream.stream);
    if (!current) return driftError(stream.stream, stream.revision.toString(), 'gone', 'the stream is no longer part of the conversation');
    if (current.revision !== stream.revision || current.chainHead !== stream.chainHead) {
      return driftError(stream.stream, stream.revision.toString(), current.revision.toString(), 'events were appended');
    }
  }
  const known = new Set(before.streams.map((stream) => stream.stream));
  const added = after.streams.find((stream) => !known.has(stream.stream));
  if (added) return driftError(added.stream, 'none', added.revision.toString(), 'a new segment or delegated child joined the conversation');
  return null;
};
