import type { ExportedConversation, ExportedMarker, ExportedMessage } from '../view/content.js';

/** Messages in order with each marker where it happened (after the messages that preceded it). */
export type Item = { kind: 'message'; message: ExportedMessage; number: number } | { kind: 'marker'; marker: ExportedMarker };

export function* itemsOf(conversation: ExportedConversation): Generator<Item> {
  let next = 0;
  const { markers, messages } = conversation;
  for (let index = 0; index < messages.length; index += 1) {
    while (next < markers.length && markers[next]!.index <= index) yield { kind: 'marker', marker: markers[next++]! };
    yield { kind: 'message', message: messages[index]!, number: index + 1 };
  }
  while (next < markers.length) yield { kind: 'marker', marker: markers[next++]! };
}

/** A conversation's heading: the one asked for, or a delegated child and where it started. */
export const conversationTitle = (conversation: ExportedConversation): string =>
  conversation.link === 'delegation'
    ? `Delegated conversation ${conversation.rootId} (started from ${conversation.parentId}, depth ${conversation.depth})`
    : `Conversation ${conversation.rootId}`;
