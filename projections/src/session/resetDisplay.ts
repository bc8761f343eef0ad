import type { DisplayView } from './displayView.js';

/**
 * The display of a conversation started by a reset (`link: 'reset'`): the conversation it reset,
 * then its own messages, as a chat thread shows them after /new. `earlier` is that conversation's
 * display, read up to the segment the reset names (its own `earlier` included). Pure: the caller
 * reads it. The result keeps the later conversation's identity (root, tip, segments, turns, last
 * activity); `earlier` says how many messages come first and which segments they were read from.
 */
export const afterReset = (earlier: DisplayView, own: DisplayView): DisplayView => {
  const offset = earlier.messages.length;
  return {
    rootId: own.rootId,
    tipId: own.tipId,
    segments: own.segments,
    messages: [...earlier.messages, ...own.messages],
    markers: [...earlier.markers, ...own.markers.map((marker) => ({ ...marker, index: marker.index + offset }))],
    turns: own.turns,
    lastActivity: own.lastActivity ?? earlier.lastActivity,
    earlier: {
      messages: offset + (own.earlier?.messages ?? 0),
      segments: [...(earlier.earlier?.segments ?? []), ...earlier.segments, ...(own.earlier?.segments ?? [])],
    },
  };
};
