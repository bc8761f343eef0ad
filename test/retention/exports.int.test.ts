import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { digestOf, hashOf, readWholeStream, sha256Hex } from '@session-ledger/core';
import { displayView, viewToJson } from '@session-ledger/projections';
import { readConversationState } from '@session-ledger/sessions';
import { exportSession, manifestOf, readCoverage, type ExportFormat } from '@session-ledger/retention';
import { buildConversation, SCRIPT, scratchDir, STORES, writerOn } from './helpers.js';

const DISPLAY_FORMATS: ExportFormat[] = ['markdown', 'html', 'qmd'];
const text = (bytes: Buffer) => bytes.toString('utf8');
/** What a reader sees: HTML entities decoded. */
const seen = (out: string) => out.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

describe.each(STORES)('exports that declare their view (%s)', (_name, open) => {
  it.each(DISPLAY_FORMATS)('%s carries the display view: compacted history (marked), earlier versions, tool calls and results, markers', async (format) => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);

    const result = await exportSession(store, 'root-2', { format, now: now() });
    const out = seen(text(result.bytes));

    // compacted messages m1..m3 are in the export, and marked
    expect(out).toContain('first question');
    expect(out).toContain('tool output 42');
    expect(out).toContain('"name": "search"');
    expect(out).toMatch(/compacted by/);
    expect(out).toContain('searched; found 42');
    // the rewrite and its earlier version
    expect(out).toContain('the answer is forty-two');
    expect(out).toContain('the answer is 42');
    expect(out).toContain('Earlier version 1');
    // the compression marker and its summary, and the message after it
    expect(out).toContain('compressed: asked and answered');
    expect(out).toContain('after the compression');
    const manifest = manifestOf(format, text(result.bytes));
    expect(manifest).toMatchObject({ kind: 'manifest', tool: 'session-ledger', version: 1, format, view: 'display', lineage: 'logical', filtered: false, only: null, rootId: 'root', messageCount: 7 });
  });

  it('the manifest names every covered stream at its revision and chain head, and the digest of the exported view content', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);

    const result = await exportSession(store, 'root', { format: 'markdown', now: now() });
    const manifest = manifestOf('markdown', text(result.bytes));

    const expected = [];
    for (const stream of ['session-root', 'session-root-2', 'session-sub', 'session-subsub']) {
      const events = await readWholeStream(store, stream);
      const last = events[events.length - 1]!;
      expected.push({ stream, revision: Number(last.revision), chainHead: hashOf(last) });
    }
    expect(manifest.streams).toEqual(expected);
    expect(manifest.sessionIds).toEqual(['root', 'root-2', 'sub', 'subsub']);
    expect(result.deleted).toEqual([]);
    // the digest is sha256 of the canonical JSON of the messages exactly as exported
    const { state } = await readConversationState(store, 'root');
    const view = displayView(state);
    // Each segment's title, model, source and start, and the turns: the display export carries them (helper-97 F7).
    const details = (st: typeof state) => ({
      sessions: st.segments.map(({ sessionId, startedAt, title, model, source }) => JSON.parse(JSON.stringify({ sessionId, startedAt, title, model, source }))),
      turns: JSON.parse(JSON.stringify(st.turns)),
    });
    const conversation = { rootId: 'root', tipId: 'root-2', link: null, parentId: null, depth: 0, segments: ['root', 'root-2'], messages: viewToJson(view.messages), markers: viewToJson(view.markers), ...details(state) };
    const coverage = await readCoverage(store, 'root');
    expect(coverage.conversations.map((c) => c.rootId)).toEqual(['root', 'sub', 'subsub']);
    const children = manifest.conversations.slice(1);
    expect(children).toEqual([
      { rootId: 'sub', tipId: 'sub', link: 'delegation', parentId: 'root-2', segments: ['sub'] },
      { rootId: 'subsub', tipId: 'subsub', link: 'delegation', parentId: 'sub', segments: ['subsub'] },
    ]);
    const subView = displayView(coverage.conversations[1]!.loaded.state);
    const subsubView = displayView(coverage.conversations[2]!.loaded.state);
    const all = [
      conversation,
      { rootId: 'sub', tipId: 'sub', link: 'delegation', parentId: 'root-2', depth: 1, segments: ['sub'], messages: viewToJson(subView.messages), markers: viewToJson(subView.markers), ...details(coverage.conversations[1]!.loaded.state) },
      { rootId: 'subsub', tipId: 'subsub', link: 'delegation', parentId: 'sub', depth: 2, segments: ['subsub'], messages: viewToJson(subsubView.messages), markers: viewToJson(subsubView.markers), ...details(coverage.conversations[2]!.loaded.state) },
    ];
    expect(manifest.digest).toBe(digestOf({ view: 'display', only: null, conversations: all }));
  });

  it('lineage logical covers the compression chain and delegated children (marked sections), never a branch; lineage tip covers the tip alone', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);

    const logical = text((await exportSession(store, 'root', { format: 'markdown', now: now() })).bytes);
    expect(logical).toContain('## Delegated conversation `sub` (started from `root-2`, depth 1)');
    expect(logical).toContain('## Delegated conversation `subsub` (started from `sub`, depth 2)');
    expect(logical).toContain('delegated task text');
    expect(logical).toContain('nested delegated text');
    expect(logical).not.toContain('branch text');

    const tip = await exportSession(store, 'root', { format: 'markdown', lineage: 'tip', now: now() });
    const tipText = text(tip.bytes);
    expect(tip.streams.map((s) => s.stream)).toEqual(['session-root-2']);
    expect(tipText).toContain('after the compression');
    expect(tipText).not.toContain('first question');
    expect(tipText).not.toContain('delegated task text');
    expect(manifestOf('markdown', tipText)).toMatchObject({ lineage: 'tip', sessionIds: ['root-2'], messageCount: 1 });
  });

  it('a tip export carries an older message whose rewrite is stored in the tip', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const { rewriteMessage } = await import('@session-ledger/sessions');
    await rewriteMessage(context, 'root-2', 'm1', 'first question, edited in the tip');

    const tip = text((await exportSession(store, 'root', { format: 'markdown', lineage: 'tip', now: now() })).bytes);
    expect(tip).toContain('first question, edited in the tip');
    expect(tip).toContain(`first question ${SCRIPT}`);
  });

  it('html is one self-contained file: all content escaped, the manifest as inert JSON, no external links', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);

    const html = text((await exportSession(store, 'root', { format: 'html', now: now() })).bytes);
    expect(html).not.toContain(SCRIPT);
    expect(html).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; friends');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('<script type="application/json" id="session-ledger-manifest">');
    const manifestJson = html.slice(html.indexOf('session-ledger-manifest">') + 25, html.indexOf('</script>'));
    expect(manifestJson).not.toContain('<');
    expect(html).not.toMatch(/\b(src|href)=/);
    expect(html).toContain('<style>');
    expect(manifestOf('html', html).digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('--only makes a filtered export that says so', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);

    const result = await exportSession(store, 'root', { format: 'qmd', only: ['user'], now: now() });
    const out = text(result.bytes);
    expect(manifestOf('qmd', out)).toMatchObject({ filtered: true, only: ['user'], messageCount: 3 });
    expect(out).toContain('**Filtered export**');
    expect(out).not.toContain('the answer is forty-two');
    expect(result.filtered).toBe(true);
  });

  it('jsonl is the raw view: a manifest line, then every stored event of every covered stream, hash chain included', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);

    const lines = text((await exportSession(store, 'root', { format: 'jsonl', now: now() })).bytes).trim().split('\n').map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ kind: 'manifest', format: 'jsonl', view: 'raw', messageCount: 7 });
    const stored = [];
    for (const stream of ['session-root', 'session-root-2', 'session-sub', 'session-subsub']) stored.push(...(await readWholeStream(store, stream)));
    expect(lines.slice(1).map((line) => [line.stream, line.id, line.revision, line.metadata.hash])).toEqual(
      stored.map((event) => [event.streamName, event.id, Number(event.revision), event.metadata.hash]),
    );
    expect(lines[0].eventCount).toBe(stored.length);
  });

  it('writes the file durably, reads it back, and never overwrites an existing file', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'export.md');

    const result = await exportSession(store, 'root', { format: 'markdown', out, now: now() });
    expect(result.file).toBe(out);
    expect(result.fileSha256).toBe(`sha256:${sha256Hex(readFileSync(out))}`);
    writeFileSync(out, 'an earlier export');
    await expect(exportSession(store, 'root', { format: 'markdown', out, now: now() })).rejects.toMatchObject({ type: 'duplicate' });
    expect(readFileSync(out, 'utf8')).toBe('an earlier export');
  });

  it('refuses bad options with invalid_input', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    await expect(exportSession(store, 'root', { format: 'pdf' as never })).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(exportSession(store, 'root', { format: 'jsonl', view: 'display' })).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(exportSession(store, 'root', { format: 'jsonl', only: ['user'] })).rejects.toMatchObject({ type: 'invalid_input' });
    await expect(exportSession(store, 'nobody', { format: 'markdown', now: now() })).rejects.toMatchObject({ type: 'not_found' });
  });
});
