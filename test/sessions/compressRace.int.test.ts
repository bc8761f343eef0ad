import { describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { appendMessage, compressSession, loadConversation, startSession } from '@session-ledger/sessions';
import { wrapStore } from '../support/killedStore.js';
import { STORES, writerOn } from './stores.js';

/**
 * The same compression sent by several clients at once: one stores the continuation, and another,
 * reading it before the child is started, starts the child. Both answered written: true (201) on two
 * server processes (outside test, session 33, helper-92 F3). The call that stored the compression is
 * the one that made it; completing a stored one is a retry's answer.
 */
describe.each(STORES)('compressions racing (%s)', (_name, open) => {
  it('exactly one is answered written, the one that stored the continuation; one child, started once', async () => {
    const base = open();
    const writer = writerOn(base);
    await startSession(writer.context, { id: 'p' });
    await appendMessage(writer.context, 'p', { role: 'user', content: 'before' });
    const input = { summary: 'S', childId: 'c' };
    let other: Awaited<ReturnType<typeof compressSession>> | undefined;
    // Right after this call's continuation is stored, before it starts the child, the other call runs whole.
    const store = wrapStore(base, {
      appendToStream: async (stream, events, options) => {
        const result = await base.appendToStream(stream, events, options);
        if (other === undefined && events.some((event) => event.type === 'session.continued')) other = await compressSession(writer.context, 'p', input);
        return result;
      },
    });
    const first = await compressSession({ ...writer.context, ledger: createLedger(store) }, 'p', input);

    expect([first.written, other?.written]).toEqual([true, false]);
    expect([first.sessionId, other?.sessionId]).toEqual(['c', 'c']);
    const raw = await loadConversation(base, 'c', { view: 'raw' });
    expect(raw.events.map((event) => event.type).filter((type) => type.startsWith('session.'))).toEqual(['session.started', 'session.continued', 'session.started']);
  });
});
