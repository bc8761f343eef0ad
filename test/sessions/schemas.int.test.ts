import { describe, expect, it } from 'vitest';
import { deterministicId } from '@session-ledger/core';
import { SCHEMA_VERSION_KEY, sessionStream } from '@session-ledger/events';
import { appendMessage, loadConversation, startSession } from '@session-ledger/sessions';
import { STORES, writerOn } from './stores.js';

const v1Message = { messageId: 'old', role: 'user', content: 'from v1', tokens: 12, timestamp: '2025-01-01T00:00:00.000Z' };

describe.each(STORES)('schemas through the store (%s)', (_name, open) => {
  it('a stored v1 message reads upcast; the writer rejects bad input and stores nothing', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    await context.ledger.append(sessionStream('s'), [{ id: deterministicId('v1'), type: 'message.appended', data: v1Message, metadata: { [SCHEMA_VERSION_KEY]: 1 } }], {
      expectedRevision: 0n,
    });

    await expect(appendMessage(context, 's', { role: 'robot' as never, content: 'x' })).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(appendMessage(context, 's', { id: 'bad id', role: 'user', content: 'x' })).rejects.toMatchObject({ type: 'invalid_input' });

    const view = await loadConversation(store, 's');
    expect(view.messages).toEqual([expect.objectContaining({ id: 'old', content: 'from v1', tokenCounts: { total: 12 } })]);
  });

  it('a stored event of a newer schema makes the conversation fail with unsupported_version, while raw still shows it', async () => {
    const { context, store } = writerOn(open());
    await startSession(context, { id: 's' });
    await context.ledger.append(sessionStream('s'), [{ id: deterministicId('v9'), type: 'message.appended', data: { any: 'shape' }, metadata: { [SCHEMA_VERSION_KEY]: 9 } }]);

    await expect(loadConversation(store, 's')).rejects.toMatchObject({ type: 'unsupported_version' });
    expect((await loadConversation(store, 's', { view: 'raw' })).events.map((event) => event.type)).toEqual(['session.started', 'message.appended']);
  });
});
