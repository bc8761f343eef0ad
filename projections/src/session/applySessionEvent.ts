import type { SessionRecord } from '@session-ledger/events';
import { applyCompaction } from './applyCompaction.js';
import { applyAppended, applyRewound, applyRewritten } from './applyMessageEvent.js';
import { applySegmentEvent, applyStarted } from './applySegmentEvent.js';
import { applyTurnEvent } from './applyTurnEvent.js';
import { eventTimeOf, laterOf } from './eventTime.js';
import { skip } from './skip.js';
import type { ConversationState } from './state.js';

/**
 * The reducer: applies one stored event to a conversation being folded (a draft; it mutates).
 * Events come root segment first, each segment in revision order. Nothing here reads a clock.
 */
export const applySessionEvent = (state: ConversationState, record: SessionRecord): void => {
  if (record.type === 'session.started') applyStarted(state, record);
  else {
    const at = state.segmentIndex.get(record.sessionId);
    const segment = at === undefined ? undefined : state.segments[at];
    if (!segment) return skip(state, record, 'segment not started');
    if (record.revision <= segment.revision) return skip(state, record, 'revision already folded');
    segment.revision = record.revision;
    switch (record.type) {
      case 'message.appended':
        if (at !== state.segments.length - 1) state.segmentRanges = false;
        applyAppended(state, record);
        break;
      case 'message.rewritten':
        applyRewritten(state, record);
        break;
      case 'history.rewound':
        applyRewound(state, record);
        break;
      case 'history.compacted':
        applyCompaction(state, record);
        break;
      case 'turn.started':
      case 'turn.lease_renewed':
      case 'turn.ended':
        applyTurnEvent(state, record);
        break;
      default:
        applySegmentEvent(state, segment, record);
    }
  }
  state.lastActivity = laterOf(state.lastActivity, eventTimeOf(record));
};
