import type { RecordedEvent } from './envelope.js';
import type { JsonObject, JsonValue } from './json.js';
import type { StoredEventText } from './log/port.js';

/** An event as a SQL store keeps it (JSON as text), read back: every reader of such rows parses them here. */
export const recordedFromText = (row: StoredEventText): RecordedEvent => ({
  streamName: row.stream,
  id: row.id,
  type: row.type,
  revision: row.revision,
  position: row.position,
  data: JSON.parse(row.data) as JsonValue,
  metadata: JSON.parse(row.metadata) as JsonObject,
  created: row.created,
});
