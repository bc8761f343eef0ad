import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger, readWholeStream, storeUnavailable, type EventStore } from '@session-ledger/core';
import { AUDIT_STREAM } from '@session-ledger/retention';
import { appendMessage, appendMessages, beginTurn, endTurn, loadConversation, rewindMessages, rewriteMessage, startSession } from '@session-ledger/sessions';
import { deleteSession, exportAndDelete, exportSession, manifestOf } from '@session-ledger/retention';
import { buildConversation, COVERED, scratchDir, SCRIPT, STORES, wrapStore, writerOn } from './helpers.js';

const gone = async (store: EventStore, stream: string) => {
  await expect(store.readStream(stream)).rejects.toMatchObject({ type: 'stream_deleted' });
};

const stillThere = async (store: EventStore, streams: string[]) => {
  for (const stream of streams) expect((await store.readStream(stream)).length).toBeGreaterThan(0);
};

describe.each(STORES)('export --delete-after-verified (%s)', (_name, open) => {
  it('deletes exactly the streams the export covers (chain and delegated children, never a branch), and a branch still loads', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'export.md');

    const result = await exportAndDelete(ledger, 'root', { format: 'markdown', out, now: now() });

    expect([...result.deleted].sort()).toEqual([...COVERED].sort());
    expect(result.deleted.indexOf('session-subsub')).toBeLessThan(result.deleted.indexOf('session-sub'));
    expect(result.deleted.indexOf('session-root-2')).toBeLessThan(result.deleted.indexOf('session-root'));
    for (const stream of COVERED) await gone(store, stream);
    const branch = await loadConversation(store, 'br');
    expect(branch.messages.map((m) => m.content)).toEqual(['branch text']);
    expect(readFileSync(out, 'utf8')).toContain('delegated task text');
    expect(manifestOf('markdown', readFileSync(out, 'utf8')).digest).toBe(result.digest);
  });

  // Outside test, session 35 (helper-97 F1): rewound messages (Hermes /retry, rewindMessages) are in the raw view only,
  // and a display export deleted them, exit 0, in no file.
  it('a display export refuses to delete a conversation holding rewound messages, before writing anything; the raw view deletes it whole', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await startSession(context, { id: 'rw' });
    await appendMessages(context, 'rw', [
      { id: 'u1', role: 'user', content: 'SECRET-ORIGINAL-QUESTION' },
      { id: 'a1', role: 'assistant', content: 'an answer' },
    ]);
    await rewindMessages(context, 'rw', ['u1', 'a1'], { reason: 'retry' });
    await appendMessages(context, 'rw', [{ id: 'u2', role: 'user', content: 'asked again' }]);
    const dir = scratchDir();
    for (const format of ['markdown', 'html', 'qmd'] as const) {
      const out = join(dir, `rw.${format}`);
      await expect(exportAndDelete(ledger, 'rw', { format, out, now: now() })).rejects.toMatchObject({ type: 'invalid_input', message: expect.stringContaining('leaves out 2 rewound message(s)') });
      expect(existsSync(out)).toBe(false);
    }
    await stillThere(store, ['session-rw']);
    const out = join(dir, 'rw-raw.md');
    expect((await exportAndDelete(ledger, 'rw', { format: 'markdown', view: 'raw', out, now: now() })).deleted).toEqual(['session-rw']);
    expect(readFileSync(out, 'utf8')).toContain('SECRET-ORIGINAL-QUESTION');
  });

  // Outside test, session 35 (helper-97 F7): display exports left out the title, model, source, extra and turns, which the deletion then erased.
  it('a display export carries the title, model, source, extra and turns it deletes, in every display format', async () => {
    const dir = scratchDir();
    for (const format of ['markdown', 'html', 'qmd'] as const) {
      const { context, store, ledger, now } = writerOn(open());
      const id = `f-${format}`;
      await startSession(context, { id, title: 'TITLE-VAL', model: 'MODEL-VAL', source: 'SOURCE-VAL', extra: { note: 'SESSION-EXTRA-VAL' } });
      const { turnId } = await beginTurn(context, id, { owner: 'OWNER-VAL', ttlMs: 60_000 });
      await appendMessages(context, id, [{ id: `${id}-m1`, role: 'user', content: 'hello', turnId }]);
      await endTurn(context, id, turnId, { outcome: 'interrupted' });
      const out = join(dir, `${id}.${format}`);
      expect((await exportAndDelete(ledger, id, { format, out, now: now() })).deleted).toEqual([`session-${id}`]);
      const text = readFileSync(out, 'utf8');
      for (const value of ['TITLE-VAL', 'MODEL-VAL', 'SOURCE-VAL', 'SESSION-EXTRA-VAL', 'OWNER-VAL', 'interrupted']) expect(text, `${format}: ${value}`).toContain(value);
      await gone(store, `session-${id}`);
    }
  });

  it('--lineage tip exports and deletes only the tip segment; the rest still loads', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);

    const result = await exportAndDelete(ledger, 'root', { format: 'markdown', lineage: 'tip', out: join(scratchDir(), 'tip.md'), now: now() });

    expect(result.deleted).toEqual(['session-root-2']);
    await gone(store, 'session-root-2');
    await stillThere(store, ['session-root', 'session-sub', 'session-subsub', 'session-br']);
    const rest = await loadConversation(store, 'root');
    expect(rest.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('an html export with --delete-after-verified: escaped content on disk, then the session is gone', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'export.html');

    const result = await exportAndDelete(ledger, 'root-2', { format: 'html', out, now: now() });

    const html = readFileSync(out, 'utf8');
    expect(html).not.toContain(SCRIPT);
    expect(html).toContain('&lt;script&gt;');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(result.deleted).toHaveLength(4);
    await gone(store, 'session-root');
  });

  it.each(['heads', 'full'] as const)('a message appended after the export is read: drift, nothing deleted, the export file unchanged, the command says what changed (recheck %s)', async (recheck) => {
    const base = open();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    const out = join(scratchDir(), 'export.md');
    const expected = (await exportSession(base, 'root', { format: 'markdown', now: now() })).bytes;
    let tombstones = 0;
    let slipped = false;
    const store = wrapStore(base, {
      // the re-read of step 3 happens once the file is on disk: a writer slips in just before it
      readStream: async (stream, options) => {
        if (!slipped && existsSync(out)) {
          slipped = true;
          await appendMessage(context, 'root-2', { id: 'late', role: 'user', content: 'written after the export' });
        }
        return base.readStream(stream, options);
      },
      tombstoneStream: async (stream, options) => {
        tombstones += 1;
        return base.tombstoneStream(stream, options);
      },
    });

    const attempt = exportAndDelete(createLedger(store), 'root', { format: 'markdown', out, now: now(), recheck });

    await expect(attempt).rejects.toMatchObject({ type: 'drift', details: { stream: 'session-root-2', exported: '3', current: '4' } });
    await expect(attempt).rejects.toThrow(/session-root-2 changed .*read at revision 3, now 4.*the session was kept and the export stays at/);
    // The same command again would meet that file: the message says what to do (outside test, session 29).
    await expect(attempt).rejects.toThrow(/; to export and delete the session as it is now, remove that file or choose another --out$/);
    expect(tombstones).toBe(0);
    expect(readFileSync(out).equals(expected)).toBe(true);
    const kept = await loadConversation(base, 'root');
    expect(kept.messages.map((m) => m.id)).toContain('late');
    await stillThere(base, COVERED);
  });

  it('a message appended between the last check and the tombstone: the conditional tombstone refuses it, nothing is deleted', async () => {
    const base = open();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    let slipped = false;
    const store = wrapStore(base, {
      tombstoneStream: async (stream, options) => {
        if (!slipped) {
          slipped = true;
          await appendMessage(context, 'sub', { id: 'late', role: 'user', content: 'written in the gap' });
        }
        return base.tombstoneStream(stream, options);
      },
    });

    const attempt = exportAndDelete(createLedger(store), 'root', { format: 'jsonl', out: join(scratchDir(), 'x.jsonl'), now: now() });

    // subsub goes first (children before the segment that links them); sub moved: partial deletion, precisely reported
    await expect(attempt).rejects.toMatchObject({
      type: 'partial_deletion',
      details: { deleted: ['session-subsub'], kept: ['session-sub', 'session-root-2', 'session-root'], stream: 'session-sub', exported: '2', current: '3' },
    });
    await stillThere(base, ['session-sub', 'session-root-2', 'session-root']);
    expect((await loadConversation(base, 'sub')).messages.map((m) => m.content)).toContain('written in the gap');
  });

  it.each(['heads', 'full'] as const)('a same-count rewrite after the export is read: drift, nothing deleted (recheck %s)', async (recheck) => {
    const base = open();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    const out = join(scratchDir(), 'export.qmd');
    let slipped = false;
    const store = wrapStore(base, {
      readStream: async (stream, options) => {
        if (!slipped && existsSync(out)) {
          slipped = true;
          await rewriteMessage(context, 'root-2', 'm5', 'after the compressioN');
        }
        return base.readStream(stream, options);
      },
    });

    const attempt = exportAndDelete(createLedger(store), 'root', { format: 'qmd', out, now: now(), recheck });

    await expect(attempt).rejects.toMatchObject({ type: 'drift', details: { stream: 'session-root-2' } });
    const kept = await loadConversation(base, 'root');
    expect(kept.messages).toHaveLength(5);
    expect(kept.messages[4]!.content).toBe('after the compressioN');
    expect(readFileSync(out, 'utf8')).not.toContain('after the compressioN');
  });

  it('a filtered (--only) export never authorises a deletion: refused before anything is written', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'only.md');

    await expect(exportAndDelete(ledger, 'root', { format: 'markdown', only: ['user', 'assistant'], out, now: now() })).rejects.toMatchObject({
      type: 'invalid_input',
      details: { field: 'only' },
    });
    expect(existsSync(out)).toBe(false);
    await stillThere(store, COVERED);
  });

  it('appends an audit record (streams, final revisions and chain heads, export digest and file, reason, time) that audit verify covers', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'export.jsonl');

    const result = await exportAndDelete(ledger, 'root', { format: 'jsonl', out, now: now() });

    const [intent, record] = await readWholeStream(store, AUDIT_STREAM);
    expect(intent).toMatchObject({ type: 'retention.deletion_intended', data: { rootId: 'root', reason: 'export', export: { file: out, fileSha256: result.fileSha256 } } });
    expect((intent!.data as { streams: unknown[] }).streams).toHaveLength(result.streams.length);
    expect(record).toMatchObject({
      type: 'retention.deleted',
      data: {
        rootId: 'root',
        reason: 'export',
        complete: true,
        deleted: result.deleted,
        kept: [],
        streams: result.streams,
        export: { file: out, format: 'jsonl', view: 'raw', digest: result.digest },
        intent: intent!.id,
        at: now().toISOString(),
      },
    });
    expect(JSON.stringify(record!.data)).not.toContain('first question');
    const report = await ledger.verify();
    expect(report.broken).toBeNull();
    expect(report.streams).toBeGreaterThan(0);
  });

  it('fails closed: a read that keeps failing after the file is written keeps the session and says so', async () => {
    const base = open();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    const out = join(scratchDir(), 'export.md');
    const store = wrapStore(base, {
      readStream: async (stream, options) => {
        if (existsSync(out)) throw storeUnavailable('SQLite is busy', 'SQLITE_BUSY');
        return base.readStream(stream, options);
      },
    });

    const attempt = exportAndDelete(createLedger(store), 'root', { format: 'markdown', out, now: now(), retry: { attempts: 3, baseDelayMs: 1 } });

    await expect(attempt).rejects.toMatchObject({ type: 'store_unavailable' });
    await expect(attempt).rejects.toThrow(/the session was kept/);
    expect(existsSync(out)).toBe(true);
    await stillThere(base, COVERED);
  });

  it('reads that feed the decision are retried like ordinary reads: transient failures do not stop the deletion', async () => {
    const base = open();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    let failures = 0;
    const store = wrapStore(base, {
      readStream: async (stream, options) => {
        if (failures < 2) {
          failures += 1;
          throw storeUnavailable('SQLite is busy', 'SQLITE_BUSY');
        }
        return base.readStream(stream, options);
      },
    });

    const result = await exportAndDelete(createLedger(store), 'root', { format: 'html', out: join(scratchDir(), 'e.html'), now: now(), retry: { attempts: 5, baseDelayMs: 1 } });

    expect(failures).toBe(2);
    expect(result.deleted).toHaveLength(4);
  });

  it('a deletion that stopped part way can be finished by deleting again', async () => {
    const base = open();
    const { context, now } = writerOn(base);
    await buildConversation(context);
    let refused = false;
    const store = wrapStore(base, {
      tombstoneStream: async (stream, options) => {
        if (stream === 'session-root-2' && !refused) {
          refused = true;
          throw storeUnavailable('connection reset', 'UNAVAILABLE');
        }
        return base.tombstoneStream(stream, options);
      },
    });

    const attempt = deleteSession(createLedger(store), 'root', { now: now(), retry: { attempts: 1, baseDelayMs: 1 } });
    await expect(attempt).rejects.toMatchObject({
      type: 'partial_deletion',
      details: { deleted: ['session-subsub', 'session-sub'], kept: ['session-root-2', 'session-root'], stream: 'session-root-2' },
    });

    const again = await deleteSession(createLedger(base), 'root', { now: now() });
    expect(again.deleted).toEqual(['session-root-2', 'session-root']);
    const audit = await readWholeStream(base, AUDIT_STREAM);
    expect(audit.map((event) => event.type)).toEqual(['retention.deletion_intended', 'retention.deleted', 'retention.deletion_intended', 'retention.deleted']);
    expect(audit.map((event) => (event.data as { complete?: boolean }).complete)).toEqual([undefined, false, undefined, true]);
  });
});

describe('erasure (sqlite)', () => {
  it('a deleted message text is no longer in the SQLite file bytes', async () => {
    const { openSqliteStore } = await import('@session-ledger/store-sqlite');
    const dir = scratchDir();
    const file = join(dir, 'ledger.sqlite');
    const store = openSqliteStore(file);
    const { context, ledger, now } = writerOn(store);
    await buildConversation(context);
    await appendMessage(context, 'root-2', { role: 'user', content: 'ERASE-ME-7f3a9c secret text' });
    const bytes = () => Buffer.concat([file, `${file}-wal`].filter(existsSync).map((path) => readFileSync(path)));
    expect(bytes().includes('ERASE-ME-7f3a9c')).toBe(true);

    await exportAndDelete(ledger, 'root', { format: 'markdown', out: join(dir, 'kept.md'), now: now() });

    expect(bytes().includes('ERASE-ME-7f3a9c')).toBe(false);
    expect(bytes().includes('branch text')).toBe(true);
    await store.close();
  });
});

describe('the audit record and the log commitment (sqlite)', () => {
  it("names each tombstone's deletion leaf in the log, and the leaf it names is that tombstone's", async () => {
    const { openSqliteStore } = await import('@session-ledger/store-sqlite');
    const store = openSqliteStore(join(scratchDir(), 'ledger.sqlite'));
    const { context, ledger, now } = writerOn(store);
    await buildConversation(context);

    const result = await exportAndDelete(ledger, 'root', { format: 'jsonl', out: join(scratchDir(), 'export.jsonl'), now: now() });

    const records = await readWholeStream(store, AUDIT_STREAM);
    const outcome = records.find((event) => event.type === 'retention.deleted')!;
    const log = (outcome.data as { log: Array<{ stream: string; leaf: number; headRevision: number; firstLeaf: number | null; lastLeaf: number | null }> }).log;
    expect(log.map((entry) => entry.stream)).toEqual(result.deleted);
    for (const entry of log) {
      const [leaf] = await store.log!.entries(entry.leaf, 1);
      expect(leaf).toMatchObject({ isDeletion: true, stream: entry.stream, deletion: { kind: 'tombstone', stream: entry.stream, logSize: entry.leaf } });
      expect(Number(leaf!.deletion!.headRevision)).toBe(entry.headRevision);
      expect([leaf!.deletion!.firstLeaf, leaf!.deletion!.lastLeaf]).toEqual([entry.firstLeaf, entry.lastLeaf]);
      expect(entry.firstLeaf).not.toBeNull();
    }
    await store.close();
  });
});
