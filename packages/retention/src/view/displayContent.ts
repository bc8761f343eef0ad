import { displayView, type DisplayMessage, type DisplayView, type Marker } from '@session-ledger/projections';
import type { Role } from '@session-ledger/events';
import type { JsonObject } from '@session-ledger/core';
import type { Coverage, CoveredConversation } from '../coverage/coverage.js';
import { canonicalCopy } from './canonical.js';
import type { DisplayContent, ExportedConversation, ExportedMarker } from './content.js';
import { exportedMessage } from './exportedMessage.js';

/**
 * Keeps the messages `keep` accepts and moves each marker to the place it had among them, so a
 * marker still stands after the message it followed.
 */
const select = (view: DisplayView, keep: (message: DisplayMessage) => boolean, keepMarker: (marker: Marker) => boolean) => {
  const before = new Array<number>(view.messages.length + 1);
  const messages: DisplayMessage[] = [];
  view.messages.forEach((message, index) => {
    before[index] = messages.length;
    if (keep(message)) messages.push(message);
  });
  before[view.messages.length] = messages.length;
  const markers = view.markers.filter(keepMarker).map((marker) => ({ ...marker, index: before[marker.index] ?? messages.length }));
  return { messages, markers };
};

/**
 * The tip alone: its own messages, and older messages whose rewrite is stored in the tip (deleting
 * the tip deletes that rewrite, so the export must carry it).
 */
const inTip = (tipId: string) => (message: DisplayMessage) =>
  message.sessionId === tipId || message.versions.some((version) => version.rewrittenIn === tipId);

/** Each covered segment as it was started (title, model and source as they are now), for the export to carry. */
const sessionsOf = (conversation: CoveredConversation, covered: Set<string>): JsonObject[] => {
  // One pass for the extras: a lookup per segment read every record again (a 1,000-segment chain).
  const extras = new Map<string, JsonObject>();
  for (const record of conversation.loaded.records) {
    if (record.type === 'session.started' && record.data.extra !== undefined && !extras.has(record.sessionId)) extras.set(record.sessionId, record.data.extra);
  }
  return conversation.loaded.state.segments
    .filter((segment) => covered.has(segment.sessionId))
    .map(({ sessionId, startedAt, title, model, source }) => canonicalCopy({ sessionId, startedAt, title, model, source, extra: extras.get(sessionId) }) as JsonObject);
};

const conversationContent = (conversation: CoveredConversation, tipOnly: boolean, only: Set<Role> | null): ExportedConversation => {
  const view = displayView(conversation.loaded.state);
  const tipId = conversation.tipId;
  const byRole = (message: DisplayMessage) => only === null || only.has(message.role);
  const { messages, markers } = select(
    view,
    (message) => byRole(message) && (!tipOnly || inTip(tipId)(message)),
    (marker) => !tipOnly || marker.sessionId === tipId,
  );
  const covered = new Set(conversation.segments.map((segment) => segment.sessionId));
  // keys in canonical order (see contentDigest)
  return {
    depth: conversation.depth,
    link: conversation.link,
    markers: markers.map((marker) => canonicalCopy(marker) as ExportedMarker),
    messages: messages.map(exportedMessage),
    parentId: conversation.parentId,
    rootId: conversation.rootId,
    segments: conversation.segments.map((segment) => segment.sessionId),
    sessions: sessionsOf(conversation, covered),
    tipId,
    turns: conversation.loaded.state.turns.filter((turn) => covered.has(turn.sessionId)).map((turn) => canonicalCopy(turn) as JsonObject),
  };
};

/** The display view of everything covered: compacted messages (marked), rewrites with their earlier versions, tool calls, markers. */
export const displayContent = (coverage: Coverage, only: Role[] | null = null): DisplayContent => {
  const roles = only === null ? null : new Set(only);
  return {
    conversations: coverage.conversations.map((conversation) => conversationContent(conversation, coverage.lineage === 'tip', roles)),
    only: only === null ? null : [...only],
    view: 'display',
  };
};
