import type { Coverage } from '../coverage/coverage.js';
import { canonicalCopy } from './canonical.js';
import type { ExportedEvent, RawContent } from './content.js';

/** Every stored event of every covered stream, as stored (never validated, never upcast): the lossless view. */
export const rawContent = (coverage: Coverage): RawContent => ({
  events: coverage.conversations.flatMap((conversation) =>
    conversation.segments.flatMap((segment) => segment.events.map((event) => canonicalCopy({
      stream: event.streamName,
      id: event.id,
      type: event.type,
      revision: event.revision,
      position: event.position,
      data: event.data,
      metadata: event.metadata,
      created: event.created,
    }) as ExportedEvent)),
  ),
  view: 'raw',
});
