import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '@session-ledger/core';
import { createMemoryLedger, type MemoryTarget } from '@session-ledger/memory';

const content = 'Prefers answers in French';

const contents = async (memory: ReturnType<typeof createMemoryLedger>, target: MemoryTarget) =>
  (await memory.list({ target })).map((entry) => entry.content);

describe('memory selection stays inside its target', () => {
  // Both orders: whichever target holds the earlier entry, the other target's operation must not reach it.
  for (const [first, second] of [
    ['user', 'memory'],
    ['memory', 'user'],
  ] as const) {
    it(`given the same content in ${first} (added first) and ${second}, when it is removed from ${second}, then the ${first} entry stays`, async () => {
      const memory = createMemoryLedger(createMemoryStore());
      await memory.add(first, content);
      await memory.add(second, content);

      const removed = await memory.remove(second, content);

      expect(removed.receipts).toMatchObject([{ op: 'remove', target: second, previousContent: content }]);
      expect(await contents(memory, second)).toEqual([]);
      expect(await contents(memory, first)).toEqual([content]);
    });

    it(`given the same content in ${first} (added first) and ${second}, when it is replaced in ${second}, then the ${first} entry is unchanged`, async () => {
      const memory = createMemoryLedger(createMemoryStore());
      await memory.add(first, content);
      await memory.add(second, content);

      await memory.replace(second, content, 'Prefers answers in German');

      expect(await contents(memory, second)).toEqual(['Prefers answers in German']);
      expect(await contents(memory, first)).toEqual([content]);
    });
  }
});
