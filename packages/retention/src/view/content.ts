import type { JsonObject } from '@session-ledger/core';
import type { Role } from '@session-ledger/events';
import type { DisplayMessage, Jsonified, Marker } from '@session-ledger/projections';

export type ExportedMessage = Jsonified<DisplayMessage>;
export type ExportedMarker = Jsonified<Marker>;

/** One conversation of a display export: its covered segments, messages and markers exactly as exported. */
export interface ExportedConversation {
  rootId: string;
  tipId: string;
  link: 'delegation' | null;
  parentId: string | null;
  depth: number;
  /** The covered segment ids, root to tip (or the tip alone). */
  segments: string[];
  messages: ExportedMessage[];
  /** Each at the index in `messages` where it happened. */
  markers: ExportedMarker[];
  /**
   * What the conversation was besides its messages, per covered segment: `{sessionId, startedAt,
   * title?, model?, source?, extra?}`; and its turns, `{turnId, sessionId, owner, startedAt,
   * leaseExpiresAt, ended}`. The tombstones erase them with the rest: until session 35 no display
   * export carried them (outside test, helper-97 F7).
   */
  sessions: JsonObject[];
  turns: JsonObject[];
}

/** What a display export carries; its canonical JSON is what the manifest digest names. */
export interface DisplayContent {
  view: 'display';
  only: Role[] | null;
  conversations: ExportedConversation[];
}

/** One stored event as a raw export writes it (a jsonl line): lossless, hash chain included. */
export interface ExportedEvent extends JsonObject {
  stream: string;
  id: string;
  type: string;
  revision: number | string;
  position: number | string;
  data: JsonObject[string];
  metadata: JsonObject;
  created: string;
}

/** What a raw export carries: every event of every covered stream, stream by stream in revision order. */
export interface RawContent {
  view: 'raw';
  events: ExportedEvent[];
}

export type ExportContent = DisplayContent | RawContent;

export const messageCountOf = (content: ExportContent): number =>
  content.view === 'display'
    ? content.conversations.reduce((sum, conversation) => sum + conversation.messages.length, 0)
    : content.events.reduce((sum, event) => sum + (event.type === 'message.appended' ? 1 : 0), 0);
