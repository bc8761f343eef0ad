import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, createMemoryStore, isCanonicalAsIs, readWholeStream, type JsonObject } from '@session-ledger/core';
import { messageAppendedV2, sessionStream } from '@session-ledger/events';
import { importHermes, readSnapshot } from '@session-ledger/import-hermes';
import { createHermesDb, type HermesFixture } from './fixtures/hermesDb.js';
import { tempDir } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

/**
 * The import builds message data the write path takes at its cheapest: keys in canonical order at
 * every depth (the chain hash encodes it with one native JSON.stringify), and the events package's
 * quick check answers for it (no zod per row), with exactly the schema's output.
 */
describe('imported message events', () => {
  it('hold data in canonical key order at every depth, the columns included, as the schema parses it', async () => {
    const h = createHermesDb(join(tempDir(), 'state.db'), 'current');
    open.push(h);
    h.session({ id: 'shape' });
    h.message('shape', { role: 'user', content: '  padded <memory-context>recalled</memory-context> question  ' });
    h.message('shape', {
      role: 'assistant',
      content: null,
      // Kept as Hermes wrote them (here already in canonical order; other orders take the key-by-key encoder).
      toolCalls: [{ function: { arguments: '{"q":"x"}', name: 'grep' }, id: 'c1', type: 'function' }],
      tokenCount: 30,
      finishReason: 'tool_calls',
      reasoning: 'look it up',
      extra: { platform_message_id: 'p-1', display_kind: 'text', api_content: 'api text', observed: 1 },
    });
    h.message('shape', { role: 'tool', content: 'found', toolCallId: 'c1', toolName: 'grep' });
    h.message('shape', { role: 'narrator', content: '\u0000json:[{"text":"part","type":"text"}]', toolCalls: 'not json', toolCallId: '', tokenCount: -3 });
    const store = createMemoryStore();
    await importHermes(store, { path: h.path });

    const messages = (await readWholeStream(store, sessionStream('shape'))).filter((event) => event.type === 'message.appended');
    expect(messages).toHaveLength(4);
    const columns = readSnapshot(h.path).schema.messageColumns;
    for (const event of messages) {
      const hermes = ((event.data as JsonObject).extra as JsonObject).hermes as JsonObject;
      // Every column the mapping does not read is kept, in code-unit order.
      expect(Object.keys(hermes.columns as JsonObject)).toEqual(Object.keys(hermes.columns as JsonObject).sort());
      expect(Object.keys(hermes.columns as JsonObject).length).toBeGreaterThan(5);
      expect(columns).toEqual(expect.arrayContaining(Object.keys(hermes.columns as JsonObject)));
      expect([event.data, isCanonicalAsIs(event.data)]).toEqual([event.data, true]);
      expect(JSON.stringify(event.data)).toBe(canonicalJson(event.data));
      expect(JSON.stringify(event.data)).toBe(JSON.stringify(messageAppendedV2.parse(event.data)));
    }
    // The odd row keeps what the message fields cannot hold beside them, in order too.
    const odd = ((messages[3]!.data as JsonObject).extra as JsonObject).hermes as JsonObject;
    expect(Object.keys(odd)).toEqual(['columns', 'parts', 'role', 'rowId', 'storedContent', 'timestamp', 'tokenCount', 'toolCallId', 'toolCalls']);
  });
});
