import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createLedger, type EventStore } from '@session-ledger/core';
import { deleteSession } from '@session-ledger/retention';
import { wrapStore } from '../support/killedStore.js';
import {
  appendMessage,
  appendMessages,
  beginTurn,
  compactHistory,
  compressSession,
  endTurn,
  rewriteMessage,
  startSession,
  type WriterContext,
} from '@session-ledger/sessions';

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A scratch directory removed after the test. */
export const scratchDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'retention-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

export { STORES, T0, writerOn } from '../support/stores.js';
export { killedAfter, wrapStore } from '../support/killedStore.js';

export const SCRIPT = '<script>alert("pwned")</script> & friends';

/**
 * The conversation every export test reads: `root` with a tool call and its result, an in-place
 * compaction (m1..m3 leave the active view), a rewrite of m4, then a compression into `root-2`;
 * a delegated child `sub` (with its own delegated child `subsub`) and a branch `br`.
 */
export const buildConversation = async (context: WriterContext) => {
  await startSession(context, { id: 'root', title: 'demo' });
  const turn = await beginTurn(context, 'root', { ttlMs: 60_000, owner: 'hermes' });
  await appendMessages(
    context,
    'root',
    [
      { id: 'm1', role: 'user', content: `first question ${SCRIPT}` },
      { id: 'm2', role: 'assistant', content: null, toolCalls: [{ id: 'call-1', type: 'function', function: { name: 'search', arguments: '{"q":"answer"}' } }] },
      { id: 'm3', role: 'tool', content: 'tool output 42', toolCallId: 'call-1', toolName: 'search' },
      { id: 'm4', role: 'assistant', content: 'the answer is 42' },
    ],
    { turnId: turn.turnId },
  );
  await endTurn(context, 'root', turn.turnId);
  await compactHistory(context, 'root', { throughMessageId: 'm3', summary: 'searched; found 42' });
  await rewriteMessage(context, 'root', 'm4', 'the answer is forty-two');
  await compressSession(context, 'root', { summary: 'compressed: asked and answered', childId: 'root-2' });
  await appendMessage(context, 'root-2', { id: 'm5', role: 'user', content: 'after the compression' });
  await startSession(context, { id: 'sub', parentId: 'root', link: 'delegation' });
  await appendMessage(context, 'sub', { id: 's1', role: 'user', content: 'delegated task text' });
  await startSession(context, { id: 'subsub', parentId: 'sub', link: 'delegation' });
  await appendMessage(context, 'subsub', { id: 'ss1', role: 'assistant', content: 'nested delegated text' });
  await startSession(context, { id: 'br', parentId: 'root', link: 'branch' });
  await appendMessage(context, 'br', { id: 'b1', role: 'user', content: 'branch text' });
};

export const COVERED = ['session-root', 'session-root-2', 'session-sub', 'session-subsub'];

/** A promise and its release: a step of an interleaving a test drives by hand. */
export const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

/** `base` with appends to `stream` held until `childStart` opens; `reached` opens when the first arrives (a child's start paused). */
export const holdingStartOf = (base: EventStore, stream: string) => {
  const childStart = gate();
  const reached = gate();
  const store: EventStore = wrapStore(base, {
    appendToStream: async (name, events, options) => {
      if (name === stream) {
        reached.open();
        await childStart.opened;
      }
      return base.appendToStream(name, events, options);
    },
  });
  return { store, childStart, reached };
};

/** A deletion of `p` that has read the conversation once `read` opens, and waits at its first tombstone until `tombstones` opens. */
export const pausedDeletion = (base: EventStore, now: Date) => {
  const tombstones = gate();
  const read = gate();
  const slowDelete: EventStore = wrapStore(base, {
    tombstoneStream: async (stream, options) => {
      read.open();
      await tombstones.opened;
      return base.tombstoneStream(stream, options);
    },
  });
  return { deleting: deleteSession(createLedger(slowDelete), 'p', { now }), read, tombstones };
};
