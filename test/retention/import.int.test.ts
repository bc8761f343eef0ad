import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, digestOf, MAX_JSON_DEPTH, readWholeStream, type JsonObject, type JsonValue } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { appendMessage, loadConversation, startSession } from '@session-ledger/sessions';
import { exportAndDelete, exportSession, importJsonl } from '@session-ledger/retention';
import { buildConversation, COVERED, scratchDir, STORES, writerOn } from './helpers.js';

const rewriteLines = (path: string, change: (lines: any[]) => void, options: { fixDigest?: boolean } = {}) => {
  const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  change(lines);
  if (options.fixDigest) lines[0].digest = digestOf({ view: 'raw', events: lines.slice(1) });
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
};

describe.each(STORES)('jsonl export and import (%s source)', (_name, open) => {
  it('an export deleted from one store restores into a fresh store with the same ids, revisions, metadata and hashes, and verifies', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    const before = new Map<string, unknown>();
    for (const stream of COVERED) before.set(stream, (await readWholeStream(store, stream)).map(({ id, type, revision, data, metadata }) => ({ id, type, revision, data, metadata })));
    const display = await loadConversation(store, 'root');
    const file = join(scratchDir(), 'root.jsonl');
    await exportAndDelete(ledger, 'root', { format: 'jsonl', out: file, now: now() });

    const target = openSqliteStore(join(scratchDir(), 'restored.sqlite'));
    const restored = createLedger(target);
    const result = await importJsonl(restored, file);

    expect(result.streams.map((s) => s.stream)).toEqual(COVERED);
    for (const stream of COVERED) {
      expect((await readWholeStream(target, stream)).map(({ id, type, revision, data, metadata }) => ({ id, type, revision, data, metadata }))).toEqual(before.get(stream));
    }
    expect((await restored.verify()).broken).toBeNull();
    expect((await loadConversation(target, 'root')).messages).toEqual(display.messages);
    // a store that has the streams (or deleted them) refuses, before writing anything
    await expect(importJsonl(restored, file)).rejects.toMatchObject({ type: 'duplicate' });
    await expect(importJsonl(ledger, file)).rejects.toMatchObject({ type: 'stream_deleted' });
    await target.close();
  });

  // Outside test, session 26: a message as deep as the CLI takes (tool calls nested 100 levels: its data 101) was
  // exported, verified and deleted, and its export could not be imported (the line wraps the data one level deeper).
  it('a message nested as deep as a surface takes is exported, deleted and restored; one deeper is not deleted', async () => {
    const { context, store, ledger, now } = writerOn(open());
    const nested = (depth: number): JsonValue => (depth === 0 ? 'x' : [nested(depth - 1)]);
    /** data { toolCalls: [ { arguments } ] }: three levels above the arguments. */
    const withDataDepth = (depth: number) => ({ role: 'assistant' as const, content: null, toolCalls: [{ id: 'c1', arguments: nested(depth - 3) }] as JsonObject[] });
    await startSession(context, { id: 'deep' });
    await appendMessage(context, 'deep', withDataDepth(MAX_JSON_DEPTH + 1));
    const display = await loadConversation(store, 'deep');
    const file = join(scratchDir(), 'deep.jsonl');
    await exportAndDelete(ledger, 'deep', { format: 'jsonl', out: file, now: now() });
    const target = createMemoryStore();
    await importJsonl(createLedger(target), file);
    expect((await loadConversation(target, 'deep')).messages).toEqual(display.messages);

    // Deeper than any surface takes (stored through the library): the import would refuse its export, so nothing is deleted.
    await startSession(context, { id: 'deeper' });
    await appendMessage(context, 'deeper', withDataDepth(MAX_JSON_DEPTH + 2));
    const refused = join(scratchDir(), 'deeper.jsonl');
    await expect(exportAndDelete(ledger, 'deeper', { format: 'jsonl', out: refused, now: now() })).rejects.toMatchObject({
      type: 'verification_failed',
      message: expect.stringContaining('sessions import would refuse it'),
    });
    expect((await loadConversation(store, 'deeper')).messages).toHaveLength(1);
  });

  it('restores a session whose messages carry numeric JSON keys (tool arguments, extras): the manifest digest is canonical', async () => {
    const { context, store, now } = writerOn(open());
    await startSession(context, { id: 'numeric' });
    await appendMessage(context, 'numeric', { role: 'assistant', content: null, toolCalls: [{ id: 'c1', arguments: { '10': 'ten', '9': 'nine' } }], extra: { '2': true, '11': false } });
    const file = join(scratchDir(), 'numeric.jsonl');
    const exported = await exportSession(store, 'numeric', { format: 'jsonl', out: file, now: now() });
    const events = readFileSync(file, 'utf8').trim().split('\n').slice(1).map((line) => JSON.parse(line));
    expect(exported.digest).toBe(digestOf({ view: 'raw', events }));
    const target = createMemoryStore();
    await importJsonl(createLedger(target), file);
    expect((await loadConversation(target, 'numeric')).messages).toEqual((await loadConversation(store, 'numeric')).messages);
  });

  it('refuses a file whose events do not match the manifest digest, or whose chain breaks, writing nothing', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const dir = scratchDir();
    const tampered = join(dir, 'tampered.jsonl');
    const rechained = join(dir, 'rechained.jsonl');
    await exportSession(store, 'root', { format: 'jsonl', out: tampered, now: now() });
    await exportSession(store, 'root', { format: 'jsonl', out: rechained, now: now() });
    rewriteLines(tampered, (lines) => (lines[3].data.content = 'forged'));
    rewriteLines(rechained, (lines) => (lines[3].data.content = 'forged'), { fixDigest: true });
    const target = createMemoryStore();

    await expect(importJsonl(createLedger(target), tampered)).rejects.toMatchObject({ type: 'import_source_invalid', message: expect.stringContaining('digest') });
    await expect(importJsonl(createLedger(target), rechained)).rejects.toMatchObject({ type: 'import_source_invalid', message: expect.stringContaining('hash chain') });
    await expect(importJsonl(createLedger(target), join(dir, 'missing.jsonl'))).rejects.toMatchObject({ type: 'import_source_invalid' });
    expect(await target.readAll()).toEqual([]);
  });

  it('refuses a markdown export (only jsonl is lossless)', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const file = join(scratchDir(), 'x.md');
    await exportSession(store, 'root', { format: 'markdown', out: file, now: now() });

    await expect(importJsonl(createLedger(createMemoryStore()), file)).rejects.toMatchObject({ type: 'import_source_invalid' });
  });
});
