import type { JsonObject, JsonValue, RecordedEvent } from '@session-ledger/core';
import type { EventRow } from './statements.js';

export const toRecorded = (row: EventRow): RecordedEvent => ({
  streamName: row.stream,
  id: row.id,
  type: row.type,
  revision: row.revision,
  position: row.position,
  data: JSON.parse(row.data) as JsonValue,
  metadata: JSON.parse(row.metadata) as JsonObject,
  created: row.created,
});
