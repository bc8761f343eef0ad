import { eventToJson } from '@session-ledger/core';
import type { Coverage } from '../coverage/coverage.js';
import type { ExportedEvent, RawContent } from './content.js';

/** Every stored event of every covered stream, as stored (never validated, never upcast): the lossless view. */
export const rawContent = (coverage: Coverage): RawContent => ({
  view: 'raw',
  events: coverage.conversations.flatMap((conversation) =>
    conversation.segments.flatMap((segment) => segment.events.map((event) => eventToJson(event) as ExportedEvent)),
  ),
});
