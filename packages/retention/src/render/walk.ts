import type { ExportedConversation, ExportedMarker, ExportedMessage } from '../view/content.js';
import { PLAIN_PARTS, type HeadlineParts } from './text.js';

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

/** A conversation's heading: the one asked for, or a delegated child and where it started (its parts written as markerHeadline's). */
export const conversationTitle = (conversation: ExportedConversation, { id, text }: HeadlineParts = PLAIN_PARTS): string =>
  conversation.link === 'delegation'
    ? `${text('Delegated conversation ')}${id(conversation.rootId)}${text(' (started from ')}${id(conversation.parentId ?? '')}${text(`, depth ${conversation.depth})`)}`
    : `${text('Conversation ')}${id(conversation.rootId)}`;
