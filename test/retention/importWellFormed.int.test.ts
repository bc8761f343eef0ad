import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainHash, createLedger, createMemoryStore, digestOf, type JsonObject } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { exportSession, importJsonl } from '@session-ledger/retention';
import { scratchDir, writerOn } from './helpers.js';

type Line = JsonObject & { stream: string; revision: number; id: string; type: string; data: JsonObject; metadata: JsonObject };

/**
 * A jsonl export whose message holds a lone surrogate, with its chain, manifest and digest all made
 * consistent (as a forger, or an older version, could write it): the import refuses the file before
 * writing anything, naming the line, instead of failing at the store half-way through.
 */
describe('importing a jsonl export holding a lone surrogate', () => {
  it('is import_source_invalid naming the line and stream@revision; nothing is written', async () => {
    const { context, store, now } = writerOn(createMemoryStore());
    await startSession(context, { id: 'first' });
    await appendMessage(context, 'first', { id: 'm1', role: 'user', content: 'fine' });
    await startSession(context, { id: 'second' });
    await appendMessage(context, 'second', { id: 'm1', role: 'user', content: 'to be poisoned' });
    const file = join(scratchDir(), 'poisoned.jsonl');
    await exportSession(store, 'second', { format: 'jsonl', out: file, now: now() });

    const [manifest, ...events] = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Line);
    const poisoned = events.findIndex((event) => event.type === 'message.appended');
    events[poisoned]!.data.content = 'poisoned \ud800';
    let prev: string | null = null;
    for (const event of events) {
      const { hash: _old, ...rest } = event.metadata;
      void _old;
      const metadata: JsonObject = { ...rest, prevHash: prev };
      prev = chainHash({ stream: event.stream, revision: BigInt(event.revision), id: event.id, type: event.type, data: event.data, metadata });
      event.metadata = { ...metadata, hash: prev };
    }
    (manifest!.streams as Array<{ chainHead: string | null }>)[0]!.chainHead = prev;
    manifest!.digest = digestOf({ view: 'raw', events });
    writeFileSync(file, `${[manifest, ...events].map((line) => JSON.stringify(line)).join('\n')}\n`);

    const target = createMemoryStore();
    await expect(importJsonl(createLedger(target), file)).rejects.toMatchObject({
      type: 'import_source_invalid',
      message: expect.stringContaining(`line ${poisoned + 2} (session-second@${events[poisoned]!.revision}) holds a string that is not well-formed UTF-16 (a lone surrogate) at event.data.content`),
    });
    expect(await target.readAll()).toEqual([]);
  });
});
