import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainHash, createLedger, createMemoryStore, digestOf, type JsonObject } from '@session-ledger/core';
import { appendMessage, startSession } from '@session-ledger/sessions';
import { exportSession, importJsonl } from '@session-ledger/retention';
import { scratchDir, writerOn } from './helpers.js';

type Line = JsonObject & { stream: string; revision: number; id: string; type: string; data: JsonObject; metadata: JsonObject };

/** Writes `events` back to `file` made consistent again, as a forger could: each chain link, the manifest's stream and head, the digest. */
const rewriteConsistent = (file: string, manifest: JsonObject, events: Line[]): void => {
  let prev: string | null = null;
  for (const event of events) {
    const { hash: _old, ...rest } = event.metadata;
    void _old;
    const metadata: JsonObject = { ...rest, prevHash: prev };
    prev = chainHash({ stream: event.stream, revision: BigInt(event.revision), id: event.id, type: event.type, data: event.data, metadata });
    event.metadata = { ...metadata, hash: prev };
  }
  const streams = manifest.streams as Array<{ stream: string; chainHead: string | null }>;
  streams[0]!.stream = events[0]!.stream;
  streams[0]!.chainHead = prev;
  manifest.digest = digestOf({ view: 'raw', events });
  writeFileSync(file, `${[manifest, ...events].map((line) => JSON.stringify(line)).join('\n')}\n`);
};

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
    rewriteConsistent(file, manifest!, events);

    const target = createMemoryStore();
    await expect(importJsonl(createLedger(target), file)).rejects.toMatchObject({
      type: 'import_source_invalid',
      message: expect.stringContaining(`line ${poisoned + 2} (session-second@${events[poisoned]!.revision}) holds a string that is not well-formed UTF-16 (a lone surrogate) at event.data.content`),
    });
    expect(await target.readAll()).toEqual([]);
  });
});

/** An export of `second` (started, one message), changed by `edit` and then made consistent again (chain, manifest, digest), as a forger could. */
const forgedExport = async (edit: (events: Line[]) => void): Promise<string> => {
  const { context, store, now } = writerOn(createMemoryStore());
  await startSession(context, { id: 'second' });
  await appendMessage(context, 'second', { id: 'm1', role: 'user', content: 'first' });
  await appendMessage(context, 'second', { id: 'm2', role: 'user', content: 'second' });
  const file = join(scratchDir(), 'forged.jsonl');
  await exportSession(store, 'second', { format: 'jsonl', out: file, now: now() });
  const [manifest, ...events] = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Line);
  edit(events);
  rewriteConsistent(file, manifest!, events);
  return file;
};

const deep = (levels: number): JsonObject => {
  let value: JsonObject = { leaf: true };
  for (let level = 0; level < levels; level += 1) value = { inner: value };
  return value;
};

/**
 * An import writes to the store directly (to keep ids, revisions and hashes), so it refuses what every
 * append surface refuses; each file below imported with exit 0 before, and some of what it stored could
 * then not be shown, listed or deleted (outside test, session 13).
 */
describe('importing a jsonl export holding an event no append surface would store', () => {
  it.each([
    ['an event type beginning with $', (events: Line[]) => {
      events[2]!.type = '$foo';
    }, 'beginning with $'],
    ['a type that is not a session event', (events: Line[]) => {
      events[2]!.type = 'foo.bar';
    }, 'is not a session event type'],
    ['a message its schema refuses (content a number)', (events: Line[]) => {
      events[2]!.data.content = 5;
    }, 'line 4'],
    ['a session id with a control character', (events: Line[]) => {
      for (const event of events) event.stream = 'session-h\u0001x';
      events[0]!.data.sessionId = 'h\u0001x';
    }, 'control character'],
    ['an empty session id', (events: Line[]) => {
      for (const event of events) event.stream = 'session-';
      events[0]!.data.sessionId = '';
    }, 'is not a session id'],
    ['one event id twice in a stream', (events: Line[]) => {
      events[2]!.id = events[1]!.id;
    }, 'repeats the event id'],
    ['a key named __proto__ in data', (events: Line[]) => {
      events[2]!.data = { ...events[2]!.data, extra: JSON.parse('{"__proto__":{"x":1}}') as JsonObject };
    }, '"__proto__"'],
    ['JSON nested 2,000 deep', (events: Line[]) => {
      events[2]!.data = { ...events[2]!.data, extra: deep(2000) };
    }, 'deeper than 102 levels'],
  ] satisfies Array<[string, (events: Line[]) => void, string]>)('%s: import_source_invalid naming it (exit 2), nothing written', async (_what, edit, named) => {
    const file = await forgedExport(edit);
    const target = createMemoryStore();
    await expect(importJsonl(createLedger(target), file)).rejects.toMatchObject({ type: 'import_source_invalid', message: expect.stringContaining(named) });
    expect(await target.readAll()).toEqual([]);
  });

  it('a whole number JSON would read as another (9007199254740993): import_source_invalid naming the line, nothing written', async () => {
    const file = await forgedExport((events) => {
      events[2]!.data = { ...events[2]!.data, extra: 'WHOLE' };
    });
    writeFileSync(file, readFileSync(file, 'utf8').replace('"WHOLE"', '9007199254740993'));
    const target = createMemoryStore();
    await expect(importJsonl(createLedger(target), file)).rejects.toMatchObject({ type: 'import_source_invalid', message: expect.stringContaining('line 4 holds the number 9007199254740993') });
    expect(await target.readAll()).toEqual([]);
  });

  it('the same export unchanged imports (what the cases above rely on)', async () => {
    const file = await forgedExport(() => undefined);
    const target = createMemoryStore();
    await expect(importJsonl(createLedger(target), file)).resolves.toMatchObject({ events: 3 });
  });
});
