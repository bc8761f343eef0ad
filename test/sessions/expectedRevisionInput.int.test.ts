import { describe, expect, it } from 'vitest';
import { isLedgerError } from '@session-ledger/core';
import { appendMessage, endSession, loadConversation, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

/**
 * The writers take an expected revision as a bigint, or none. A JavaScript caller that passes what
 * the types refuse (outside test, session 22: `{ expectedRevision: 'any' }` to appendMessage) was
 * refused as wrong_expected_version ("expected any, actual 0") on every call, 419,000 times, as if
 * another writer kept moving the session. It is bad input, said once, and nothing is written.
 */
describe.each(STORES)('a session writer given an expected revision that is none (%s)', (_name, open) => {
  it.each([['any'], ['no_stream'], [3], [-1n], [null]])('%s is invalid_input naming expectedRevision', async (given) => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    for (const write of [
      () => appendMessage(context, 's', { role: 'user', content: 'hello' }, { expectedRevision: given as never }),
      () => endSession(context, 's', { expectedRevision: given as never }),
    ]) {
      const error = await write().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isLedgerError(error, 'invalid_input') && error.details).toMatchObject({ field: 'expectedRevision' });
    }
    expect((await loadConversation(store, 's', { view: 'raw' })).events).toHaveLength(1);
    // Left out, or a bigint, it writes as before.
    await appendMessage(context, 's', { role: 'user', content: 'hello' });
    await appendMessage(context, 's', { role: 'user', content: 'again' }, { expectedRevision: 1n });
    expect((await loadConversation(store, 's')).messages.map((message) => message.content)).toEqual(['hello', 'again']);
  });
});
