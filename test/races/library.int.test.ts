import { createLedger } from '@session-ledger/core';
import { appendMessage, loadConversation, startSession } from '@session-ledger/sessions';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStore } from '../store-sqlite/writerProcess.js';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { race } from './racers.js';

/**
 * Several processes on one SQLite file, through the library, as a busy backend would call it:
 * no message ids and no expected revisions. Every acknowledged append must be stored, once.
 */
describe('racing writers in several processes (library, SQLite)', () => {
  const temp = tempLedger('races');
  beforeAll(() => buildStore(), 120_000);
  afterAll(() => temp.remove());

  const openContext = () => {
    const store = openSqliteStore(temp.file);
    return { store, context: { ledger: createLedger(store) } };
  };

  it('4 processes x 150 appends without ids or expected revisions: acknowledged == stored, each once', async () => {
    const { store, context } = openContext();
    await startSession(context, { id: 'busy' });
    const results = (await race(temp.file, 4, [{ kind: 'messages', session: 'busy', count: 150 }]))[0]!;

    const acked = results.flatMap((result) => result.acked);
    const stored = (await loadConversation(store, 'busy')).messages.map((message) => message.id);
    expect(results.flatMap((result) => result.refused)).toEqual([]);
    expect(acked).toHaveLength(600);
    expect(new Set(acked).size).toBe(600);
    expect([...stored].sort()).toEqual([...acked].sort());
    expect((await createLedger(store).verify()).broken).toBeNull();
    await store.close();
  });

  it('4 processes beginning a turn on one session at once, 20 rounds: exactly one is granted each round', async () => {
    const { store, context } = openContext();
    const sessions = Array.from({ length: 20 }, (_, round) => `turns-${round}`);
    for (const session of sessions) await startSession(context, { id: session });
    const rounds = await race(temp.file, 4, sessions.map((session) => ({ kind: 'turn' as const, session })));
    for (const [round, results] of rounds.entries()) {
      const session = sessions[round]!;
      const granted = results.flatMap((result) => result.acked);
      expect(granted).toHaveLength(1);
      expect(results.flatMap((result) => result.refused)).toEqual(['session_active', 'session_active', 'session_active']);
      const turns = (await loadConversation(store, session, { view: 'raw' })).events.filter((event) => event.type === 'turn.started');
      expect(turns.map((event) => (event.data as { turnId: string }).turnId)).toEqual(granted);
    }
    await store.close();
  });

  it('3 processes compressing one session at once with different summaries, 20 rounds: exactly one child, no summary dropped silently', async () => {
    const { store, context } = openContext();
    const sessions = Array.from({ length: 20 }, (_, round) => `compress-${round}`);
    for (const session of sessions) {
      await startSession(context, { id: session });
      await appendMessage(context, session, { role: 'user', content: 'before' });
    }
    const rounds = await race(temp.file, 3, sessions.map((session) => ({ kind: 'compress' as const, session })));
    for (const [round, results] of rounds.entries()) {
      const session = sessions[round]!;
      const children = results.flatMap((result) => result.acked);
      expect(children).toHaveLength(1);
      expect(results.flatMap((result) => result.refused)).toEqual(['session_sealed', 'session_sealed']);
      const conversation = await loadConversation(store, session);
      expect(conversation.segments.map((segment) => segment.sessionId)).toEqual([session, children[0]]);
    }
    await store.close();
  });
});
