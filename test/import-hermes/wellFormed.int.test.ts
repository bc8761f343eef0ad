import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readStreamState, type EventStore } from '@session-ledger/core';
import { sessionStream } from '@session-ledger/events';
import { importHermes, verifyHermes } from '@session-ledger/import-hermes';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { createHermesDb, type HermesFixture } from './fixtures/hermesDb.js';
import { tempDir } from './fixtures/scenarios.js';

const open: HermesFixture[] = [];
const stores: EventStore[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) h.close();
  for (const s of stores.splice(0)) await s.close();
});

/**
 * Hermes writes JSON columns with Python's json.dumps, which escapes a lone surrogate as "\udcff";
 * parsed, it is a string no store can keep as is. Repairing it (U+FFFD) would store a message Hermes
 * never held, so the import refuses that session, whole, naming it and the row, and imports the rest.
 */
describe('a Hermes row holding a lone surrogate', () => {
  it('refuses its session (nothing of it written, even batch by batch), names session and row, and imports the others', async () => {
    const dir = tempDir();
    const h = createHermesDb(join(dir, 'state.db'), 'current');
    open.push(h);
    h.session({ id: 'good', title: 'fine' });
    h.message('good', { role: 'user', content: 'hello' });
    h.session({ id: 'bad', title: 'poisoned' });
    h.message('bad', { role: 'user', content: 'first, fine' });
    h.message('bad', { role: 'assistant', content: 'second, fine' });
    const row = h.message('bad', { role: 'assistant', content: null, toolCalls: [{ id: 'c1', function: { name: 'grep', arguments: '{"q":"\udcff"}' } }] });
    const store = openSqliteStore(join(dir, 'ledger.sqlite'));
    stores.push(store);

    const report = await importHermes(store, { path: h.path, batchSize: 1 });

    const skipped = report.skipped.find((item) => item.session === 'bad');
    expect(skipped?.reason).toContain(`Hermes session bad, message row ${row}`);
    expect(skipped?.reason).toContain('not well-formed UTF-16 (a lone surrogate)');
    expect((await readStreamState(store, sessionStream('bad'))).state).toBe('absent');
    expect((await readStreamState(store, sessionStream('good'))).state).toBe('live');
  });
});

/**
 * Hermes reads its JSON columns with Python's json, where "__proto__" is a key like any other and
 * deep nesting is legal up to its recursion limit. What the ledger cannot keep as JSON (a key a
 * JavaScript copy drops, JSON deeper than MAX_JSON_DEPTH) is kept as the text Hermes stored, never
 * changed and never a crash: before, the key was dropped silently and 5,000 levels crashed the import
 * (exit 70) or its --verify (outside test, session 13).
 */
describe('a Hermes JSON column the ledger cannot keep as JSON', () => {
  const deepArray = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
  const cases = [
    ['tool_calls with a "__proto__" key', { tool_calls: '[{"__proto__":{"x":1},"id":"c1","function":{"name":"grep","arguments":"{}"}}]' }, 'toolCalls'],
    ['tool_calls nested 5,000 deep', { tool_calls: `[{"id":"c1","function":{"name":"grep","arguments":"{}"},"deep":${deepArray(5000)}}]` }, 'toolCalls'],
    // Past Python's recursion limit Hermes cannot decode it either: it shows the stored text, and so does the ledger.
    ['list content nested 5,000 deep', { content: `\u0000json:[{"type":"text","text":"hi","deep":${deepArray(5000)}}]` }, 'content'],
    ['list content with a "__proto__" key', { content: '\u0000json:[{"type":"text","text":"hi","__proto__":{"x":1}}]' }, 'storedContent'],
    // Python's json keeps a whole number of any size; JSON.parse would store 9007199254740992.
    ['tool_calls with a whole number past 2^53', { tool_calls: '[{"id":"c1","function":{"name":"grep","arguments":"{}"},"seq":9007199254740993}]' }, 'toolCalls'],
    ['list content with a whole number past 2^53', { content: '\u0000json:[{"type":"text","text":"hi","seq":18446744073709551615}]' }, 'storedContent'],
  ] as const;

  it.each(cases)('%s: imported, the column kept as the text Hermes stored', async (_what, columns, kept) => {
    const dir = tempDir();
    const h = createHermesDb(join(dir, 'state.db'), 'current');
    open.push(h);
    h.session({ id: 's', title: 'odd json' });
    h.message('s', { role: 'user', content: 'before' });
    h.message('s', { role: 'assistant', content: null, extra: columns });
    const store = openSqliteStore(join(dir, 'ledger.sqlite'));
    stores.push(store);

    const report = await importHermes(store, { path: h.path });

    expect(report.skipped).toEqual([]);
    const events = await store.readStream(sessionStream('s'));
    const message = events.filter((event) => event.type === 'message.appended')[1]!.data as { toolCalls?: unknown; content: unknown; extra: { hermes: Record<string, unknown> } };
    expect(message.toolCalls).toBeUndefined();
    expect(kept === 'content' ? message.content : message.extra.hermes[kept]).toBe(Object.values(columns)[0]);
    // Never a changed copy beside it (the parts without their "__proto__" key were kept before).
    expect(message.extra.hermes.parts).toBeUndefined();
    // --verify reads the same rows as Hermes does, and answers (a difference, where Hermes shows what the ledger keeps as text).
    await expect(verifyHermes(store, h.path)).resolves.toMatchObject({ differences: expect.any(Array) });
  });
});

/**
 * Hermes' time columns are REAL epoch seconds, but SQLite keeps what it is given: a time the import
 * cannot read as a number ('noon', a BLOB) is kept as the cell held it, beside what the import made
 * of it. Before, the raw value was lost (outside test, session 13).
 */
describe('a Hermes time cell that is not an exact number', () => {
  it('is kept as it is: $timestamp on the message, $startedAt on the session, under extra.hermes.columns', async () => {
    const dir = tempDir();
    const h = createHermesDb(join(dir, 'state.db'), 'current');
    open.push(h);
    h.session({ id: 's', title: 'odd times', extra: { started_at: 'yesterday' } });
    h.message('s', { role: 'user', content: 'at noon', extra: { timestamp: 'noon' } });
    h.message('s', { role: 'assistant', content: 'at a BLOB', extra: { timestamp: Buffer.from([1, 2, 3]) } });
    h.message('s', { role: 'user', content: 'an ordinary time', timestamp: 1_700_000_000.5 });
    const store = openSqliteStore(join(dir, 'ledger.sqlite'));
    stores.push(store);

    expect((await importHermes(store, { path: h.path })).skipped).toEqual([]);

    const events = await store.readStream(sessionStream('s'));
    const hermesOf = (data: unknown) => (data as { extra: { hermes: { columns?: Record<string, unknown> } } }).extra.hermes;
    expect(hermesOf(events[0]!.data).columns).toMatchObject({ $startedAt: 'yesterday' });
    const messages = events.filter((event) => event.type === 'message.appended').map((event) => hermesOf(event.data).columns?.$timestamp);
    expect(messages).toEqual(['noon', { $base64: 'AQID' }, undefined]);
  });
});

/**
 * Hermes writes text, but SQLite keeps what it is given: a BLOB in a text column whose bytes are no
 * UTF-8 reads as text with U+FFFD. The bytes are kept as they are beside it, so nothing Hermes held
 * is lost; a BLOB that is UTF-8 reads as its text without loss and is not kept twice. Before, the
 * bytes were lost with no report (outside test, session 13).
 */
describe('a Hermes text cell holding a BLOB that is no UTF-8', () => {
  it('is kept as it is ($content on the message, $title on the session) beside the text read with U+FFFD; a UTF-8 BLOB is read as its text', async () => {
    const dir = tempDir();
    const h = createHermesDb(join(dir, 'state.db'), 'current');
    open.push(h);
    h.session({ id: 's', extra: { title: Buffer.from([0x74, 0xff, 0x74]) } });
    h.message('s', { role: 'user', content: Buffer.from([0x68, 0x69, 0xc3]) as never });
    h.message('s', { role: 'assistant', content: Buffer.from('héllo', 'utf8') as never });
    const store = openSqliteStore(join(dir, 'ledger.sqlite'));
    stores.push(store);

    expect((await importHermes(store, { path: h.path })).skipped).toEqual([]);

    const events = await store.readStream(sessionStream('s'));
    const hermesOf = (data: unknown) => (data as { extra: { hermes: { columns?: Record<string, unknown> } } }).extra.hermes;
    expect(hermesOf(events[0]!.data).columns).toMatchObject({ $title: { $base64: Buffer.from([0x74, 0xff, 0x74]).toString('base64') } });
    const messages = events.filter((event) => event.type === 'message.appended').map((event) => ({ content: (event.data as { content: unknown }).content, kept: hermesOf(event.data).columns?.$content }));
    expect(messages).toEqual([
      { content: 'hi\ufffd', kept: { $base64: Buffer.from([0x68, 0x69, 0xc3]).toString('base64') } },
      { content: 'héllo', kept: undefined },
    ]);
    await expect(verifyHermes(store, h.path)).resolves.toMatchObject({ differences: expect.any(Array) });
  });
});
