import { describe, expect, it } from 'vitest';
import { createMemoryLedger } from '@session-ledger/memory';
import { STORES } from '../support/stores.js';

describe.each(STORES)('well-formed memory writes only (%s)', (_name, open) => {
  it('refuses a lone surrogate in an entry, a selector or the causation, and stores nothing', async () => {
    const store = open();
    const memory = createMemoryLedger(store);
    await memory.add('memory', 'Uses the blue notebook');
    const before = await store.readAll();
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['add', () => memory.add('user', 'Prefers \ud800 tea')],
      ['replace', () => memory.replace('memory', 'blue notebook', 'Uses the \udc00 notebook')],
      ['causation', () => memory.add('memory', 'fine', { causation: { sessionId: 's\ud800', turnId: 't' } })],
      // Stored in every event of the batch: a 1 MB id in 100 adds stored 100 MB (outside test, session 34, helper-94 F14).
      ['causation length', () => memory.add('memory', 'fine', { causation: { sessionId: 's'.repeat(201) } })],
      ['batch', () => memory.apply([{ op: 'add', target: 'memory', content: 'ok' }, { op: 'add', target: 'user', content: '\udc00' }])],
    ];
    for (const [label, attempt] of attempts) {
      await expect(attempt(), label).rejects.toMatchObject({ type: 'invalid_input' });
    }
    expect(await store.readAll()).toEqual(before);
    expect((await memory.list()).map((entry) => entry.content)).toEqual(['Uses the blue notebook']);
  });
});
