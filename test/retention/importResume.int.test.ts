import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger, newId, readWholeStream, storeUnavailable, type EventStore } from '@session-ledger/core';
import { appendMessages } from '@session-ledger/sessions';
import { exportAndDelete, importJsonl, IMPORT_EVENT } from '@session-ledger/retention';
import { buildConversation, COVERED, scratchDir, STORES, wrapStore, writerOn } from './helpers.js';

const shape = async (store: EventStore, stream: string) =>
  (await readWholeStream(store, stream)).map(({ id, type, revision, data, metadata }) => ({ id, type, revision, data, metadata }));

/** A jsonl export of the test conversation (with 20 more messages in the tip), and the events of each stream as they were. */
const exported = async (open: () => EventStore) => {
  const { context, store, ledger, now } = writerOn(open());
  await buildConversation(context);
  await appendMessages(context, 'root-2', Array.from({ length: 20 }, (_, n) => ({ id: `x${n}`, role: 'user' as const, content: `more ${n}` })));
  const before = new Map<string, unknown>();
  for (const stream of COVERED) before.set(stream, await shape(store, stream));
  const file = join(scratchDir(), 'root.jsonl');
  await exportAndDelete(ledger, 'root', { format: 'jsonl', out: file, now: now() });
  const total = [...before.values()].reduce((sum: number, events) => sum + (events as unknown[]).length, 0);
  return { file, before, total };
};

/** The store, cut after `limit` events were appended: every later append fails as a crashed process would stop. */
const cutAfter = (store: EventStore, limit: number) => {
  let appended = 0;
  return wrapStore(store, {
    appendToStream: async (stream, events, options) => {
      if (appended + events.length > limit) throw storeUnavailable('the process was killed');
      appended += events.length;
      return store.appendToStream(stream, events, options);
    },
  });
};

describe.each(STORES)('a jsonl import cut part way is finished by a re-run (%s)', (_name, open) => {
  it.each([1, 7, 'all'] as const)('cut after %s event(s): the re-run continues where it stopped; every event exactly once; the chains verify', async (cut) => {
    const { file, before, total } = await exported(open);
    const target = open();
    const limit = cut === 'all' ? total : cut; // 'all': every stream written, the audit record not yet

    await expect(importJsonl(createLedger(cutAfter(target, limit)), file, { chunk: 3 })).rejects.toMatchObject({ type: 'store_unavailable' });
    const stored = (await Promise.all(COVERED.map((stream) => target.readStream(stream).then((events) => events.length, () => 0)))).reduce((a, b) => a + b, 0);
    expect(stored).toBe(cut === 'all' ? total : Math.floor(cut / 3) * 3);

    const ledger = createLedger(target);
    const result = await importJsonl(ledger, file, { chunk: 3 });

    expect(result).toMatchObject({ events: total, resumed: stored });
    for (const stream of COVERED) expect(await shape(target, stream)).toEqual(before.get(stream));
    expect((await ledger.verify()).broken).toBeNull();
    expect((await target.readStream('ledger-audit')).filter((event) => event.type === IMPORT_EVENT)).toHaveLength(1);
    // finished: a third run is refused, and writes nothing
    await expect(importJsonl(ledger, file)).rejects.toMatchObject({ type: 'duplicate' });
    expect((await target.readStream('ledger-audit')).filter((event) => event.type === IMPORT_EVENT)).toHaveLength(1);
  });

  it('a stream holding DIFFERENT events (or more of them) still refuses, before anything is written', async () => {
    const { file } = await exported(open);
    const { context, ledger } = writerOn(open(), '2026-04-01T00:00:00.000Z');
    await buildConversation(context); // the same session and message ids at other times: not this file's events

    await expect(importJsonl(ledger, file)).rejects.toMatchObject({ type: 'duplicate', message: expect.stringContaining('holds a different event at revision 0') });

    const empty = open();
    const sub = readFileSync(file, 'utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line)).filter((event) => event.stream === 'session-sub');
    const whole = sub.map(({ id, type, data, metadata }) => ({ id, type, data, metadata }));
    await empty.appendToStream('session-sub', [...whole, { id: newId(), type: 'legacy.note', data: {}, metadata: {} }], { expectedRevision: 'no_stream' });
    await expect(importJsonl(createLedger(empty), file)).rejects.toMatchObject({ type: 'duplicate' });
    await expect(empty.readStream('session-root')).rejects.toMatchObject({ type: 'stream_not_found' });
  });
});

describe.each(STORES)('two imports of one file at once (%s)', (_name, open) => {
  it('every event is stored once and audited once; a run that loses the race is refused as already imported, never over the audit record', async () => {
    const { file, before } = await exported(open);
    const target = open();
    // The first run appends its audit record only once the second has finished: both read the audit stream before either wrote it.
    let second!: Promise<unknown>;
    const first = importJsonl(
      createLedger(wrapStore(target, { appendToStream: async (stream, events, options) => {
        if (stream === 'ledger-audit') await second.catch(() => undefined);
        return target.appendToStream(stream, events, options);
      } })),
      file,
      { chunk: 3 },
    );
    second = importJsonl(createLedger(target), file, { chunk: 3 });
    const results = await Promise.allSettled([first, second]);
    expect(results[1]!.status).toBe('fulfilled');
    expect(results.some((result) => result.status === 'fulfilled')).toBe(true);
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      expect(result.reason).toMatchObject({ type: 'duplicate' });
      expect(String((result.reason as Error).message)).toMatch(/were (already imported|imported by another run at the same time)/);
    }
    for (const stream of COVERED) expect(await shape(target, stream)).toEqual(before.get(stream));
    expect((await target.readStream('ledger-audit')).filter((event) => event.type === IMPORT_EVENT)).toHaveLength(1);
  });
});
