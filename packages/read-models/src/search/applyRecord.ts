import type { SessionRecord, SessionRecordOf } from '@session-ledger/events';
import { indexedText, stripControls } from './text.js';
import type { Statements } from './statements.js';

/**
 * A segment joins a conversation as the display fold and lineage say: a compression child whose
 * parent is known and is its conversation's tip belongs to the parent's root (lineage.ts `up`) and
 * becomes the tip (the writer continues the tip only); any other segment is a root of its own.
 */
const started = (s: Statements, record: SessionRecordOf<'session.started'>): void => {
  const { parentId, link, source } = record.data;
  const parent = link === 'compression' && parentId !== null ? s.segment.get(parentId) : undefined;
  const revision = Number(record.revision);
  // A parent that is not its conversation's tip continued in another child already (two compressions
  // of one segment raced, as a Hermes import keeps them): this one is a conversation of its own, as
  // the lineage says (outside test, session 33, helper-93 F2: search named the parent's conversation).
  if (!parent || s.segment.get(parent.root)?.tip !== parentId) return void s.addSegment.run(record.sessionId, record.sessionId, null, record.sessionId, source ?? null, revision);
  s.addSegment.run(record.sessionId, parent.root, parentId, record.sessionId, null, revision);
  s.moveTip.run(record.sessionId, parent.root);
};

/**
 * The segment's continuation into `childId` withdrawn (lineage.ts `up`: a child belongs to its
 * parent's conversation while the parent names it): the child and the chain below it become a
 * conversation of their own, whose tip is the old conversation's tip; the segment is its old root's tip again.
 */
const withdrawn = (s: Statements, root: string, record: SessionRecordOf<'session.continuation_withdrawn'>): void => {
  const { childId } = record.data;
  const child = s.segment.get(childId);
  if (child?.root !== root || childId === root) return;
  const tip = s.segment.get(root)!.tip;
  s.detachSegments.run({ child: childId, root });
  s.detachMessages.run(childId, childId);
  s.moveTip.run(tip, childId);
  s.moveTip.run(record.sessionId, root);
};

/** The rules of applyMessageEvent.ts, kept in the tables: a repeated id is ignored (the fold skips it). */
const appended = (s: Statements, root: string, record: SessionRecordOf<'message.appended'>): void => {
  const { messageId, role, timestamp } = record.data;
  // UTC, so `since` compares as text whatever offset the writer used.
  const added = s.addMessage.run(root, messageId, record.sessionId, record.sessionId, role, new Date(timestamp).toISOString());
  if (added.changes === 0) return;
  const { body, tools } = indexedText(record.data);
  s.addText.run(added.lastInsertRowid, body, tools);
};

/** In place: the message is found by its current text only (a rewound one stays out). Kept in its change history. */
const rewritten = (s: Statements, root: string, record: SessionRecordOf<'message.rewritten'>): void => {
  const message = s.message.get(root, record.data.messageId);
  if (!message) return;
  const body = stripControls(record.data.content ?? '');
  s.changes.record(message.id, message.segment, record.sessionId, 'rewrite', body);
  s.textFrom.run(record.sessionId, message.id);
  if (message.shown === 1) s.rewriteText.run(body, message.id);
};

/** Hidden for good; kept in the change history even when hidden already (an erased earlier rewind leaves this one in force). */
const rewound = (s: Statements, root: string, record: SessionRecordOf<'history.rewound'>): void => {
  for (const messageId of record.data.messageIds) {
    const message = s.message.get(root, messageId);
    if (!message) continue;
    s.changes.record(message.id, message.segment, record.sessionId, 'rewind', null);
    if (message.shown === 0) continue;
    s.hide.run(message.id);
    s.dropText.run(message.id);
  }
};

/**
 * Applies one session event. Like applySessionEvent: events of a segment never started, or at a
 * revision already folded (a redelivery), are skipped. Compactions change nothing here: the display
 * history keeps compacted messages.
 */
export const applyRecord = (s: Statements, record: SessionRecord): void => {
  const segment = s.segment.get(record.sessionId);
  if (record.type === 'session.started') {
    if (!segment) started(s, record);
    return;
  }
  if (!segment || record.revision <= BigInt(segment.revision)) return;
  s.folded.run(Number(record.revision), record.sessionId);
  if (record.type === 'message.appended') appended(s, segment.root, record);
  else if (record.type === 'message.rewritten') rewritten(s, segment.root, record);
  else if (record.type === 'history.rewound') rewound(s, segment.root, record);
  else if (record.type === 'session.continuation_withdrawn') withdrawn(s, segment.root, record);
};
