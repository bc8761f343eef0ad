import { describe, expect, it } from 'vitest';
import { readStreamState } from '@session-ledger/core';
import { pruneSessions } from '@session-ledger/retention';
import { appendMessage, loadConversation, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './helpers.js';

const DAY = 86_400_000;

/**
 * `sessions prune` judged the age of each conversation on its catalog listing, then deleted it at
 * the revisions its deletion read later: a message acknowledged in between, newer than the cutoff,
 * was deleted with it (outside test, session 17: 16 of 40 conversations). The age is now judged
 * again on the read the tombstones are conditional on.
 */
describe.each(STORES)('a prune racing writes (%s)', (_name, open) => {
  /** Three idle conversations, 40 days old; `during` runs between the prune's listing and its deletions. */
  const pruneWith = async (during: (write: (id: string) => Promise<unknown>) => Promise<unknown>, message: { timestamp?: string } = {}) => {
    const writer = writerOn(open());
    for (const id of ['a', 'b', 'c']) {
      await startSession(writer.context, { id });
      await appendMessage(writer.context, id, { role: 'user', content: `old ${id}` });
    }
    writer.advance(40 * DAY);
    const write = (id: string) => appendMessage(writer.context, id, { role: 'user', content: `written while the prune ran, to ${id}`, ...message });
    const result = await pruneSessions(writer.context.ledger, {
      olderThanMs: DAY,
      now: writer.now(),
      // Asked once the conversations are listed and chosen, before the first deletion reads anything.
      confirm: async (rootIds) => {
        expect(rootIds.sort()).toEqual(['a', 'b', 'c']);
        await during(write);
        return true;
      },
    });
    return { writer, result };
  };

  it('Given a message acknowledged after the listing, When the prune deletes, Then that conversation is kept with the message and reported active', async () => {
    const { writer, result } = await pruneWith((write) => write('b'));

    expect(result.deleted.sort()).toEqual(['a', 'c']);
    expect(result.skipped_active).toEqual(['b']);
    expect(result.failed).toEqual([]);
    const kept = await loadConversation(writer.store, 'b');
    expect(kept.messages.map((message) => message.content)).toEqual(['old b', 'written while the prune ran, to b']);
    expect((await readStreamState(writer.store, 'session-a')).state).toBe('tombstoned');
  });

  it('Given a message acknowledged after the listing that carries its own old timestamp, Then that conversation is kept too (outside test, session 24)', async () => {
    // a harness replaying a queued message sends the time it was typed: 39 days ago, older than the cutoff
    const backdated = new Date(Date.parse('2026-03-01T10:00:00.000Z') + DAY).toISOString();
    const { writer, result } = await pruneWith((write) => write('c'), { timestamp: backdated });

    expect(result.deleted.sort()).toEqual(['a', 'b']);
    expect(result.skipped_active).toEqual(['c']);
    expect((await loadConversation(writer.store, 'c')).messages.map((message) => message.timestamp)).toContain(backdated);
  });

  it('Given no write after the listing, Then every old conversation is deleted (the check refuses nothing idle)', async () => {
    const { result } = await pruneWith(async () => undefined);
    expect(result.deleted.sort()).toEqual(['a', 'b', 'c']);
    expect(result.skipped_active).toEqual([]);
  });
});
