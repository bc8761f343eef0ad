import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { digestOf } from '@session-ledger/core';
import { displayMessage, type MessageState } from '@session-ledger/projections';
import { contentDigest, escapeHtml, escapeShortcodes, exportedMessage, manifestOf, renderExport, type DisplayContent, type ExportedMessage, type Manifest } from '@session-ledger/retention';

const message = (id: string, content: string | null, extra: Partial<ExportedMessage> = {}): ExportedMessage => ({
  id,
  sessionId: 's',
  revision: 1,
  role: 'user',
  content,
  timestamp: '2026-03-01T10:00:00.000Z',
  compacted: false,
  rewritten: false,
  versions: [],
  ...extra,
});

const content = (messages: ExportedMessage[]): DisplayContent => ({
  view: 'display',
  only: null,
  conversations: [{ rootId: 's', tipId: 's', link: null, parentId: null, depth: 0, segments: ['s'], messages, markers: [], sessions: [], turns: [] }],
});

const manifest = (format: Manifest['format'], digest: string): Manifest => ({
  kind: 'manifest',
  tool: 'session-ledger',
  version: 1,
  format,
  view: 'display',
  lineage: 'logical',
  filtered: false,
  only: null,
  requestedId: 's',
  rootId: 's',
  sessionIds: ['s'],
  conversations: [{ rootId: 's', tipId: 's', link: null, parentId: null, segments: ['s'] }],
  streams: [{ stream: 'session-s', revision: 1, chainHead: 'ab' }],
  messageCount: 1,
  digest,
  exportedAt: '2026-03-01T10:00:00.000Z',
});

describe('content identity', () => {
  it('a same-count rewrite changes the digest; the same content gives the same digest', () => {
    const before = content([message('m1', 'hello'), message('m2', 'world')]);
    const rewritten = content([message('m1', 'hello'), message('m2', 'World', { rewritten: true, versions: [{ content: 'world', replacedAt: 'x', rewrittenIn: 's' }] })]);
    const sameText = content([message('m1', 'hello'), message('m2', 'World')]);
    expect(contentDigest(before)).toBe(contentDigest(content([message('m1', 'hello'), message('m2', 'world')])));
    expect(contentDigest(rewritten)).not.toBe(contentDigest(before));
    expect(contentDigest(sameText)).not.toBe(contentDigest(before));
    expect(contentDigest(content([message('m1', 'hello', { compacted: true })]))).not.toBe(contentDigest(content([message('m1', 'hello')])));
  });
});

describe('the exported message', () => {
  const full: MessageState = {
    id: 'm1',
    sessionId: 's',
    revision: 3n,
    role: 'assistant',
    content: 'text',
    toolCalls: [{ type: 'function', id: 'c1', function: { name: 'f', arguments: '{}' } }],
    toolCallId: 'c0',
    toolName: 'search',
    tokenCounts: { output: 3, input: 2 },
    timestamp: '2026-03-01T10:00:00.000Z',
    turnId: 't1',
    finishReason: 'stop',
    reasoning: 'because',
    extra: { zeta: 1, alpha: { y: [1, { b: 2, a: 1 }], x: null } },
    versions: [{ content: 'old', replacedAt: '2026-03-01T10:01:00.000Z', rewrittenIn: 's' }],
    compacted: true,
    compactedBy: 'sum1',
    rewritten: true,
  };

  it('carries every field of the display message (nothing of a message is lost), revisions as numbers', () => {
    const shown = displayMessage(full);
    const exported = exportedMessage(shown);
    expect(Object.keys(exported).sort()).toEqual(Object.keys(shown).sort());
    expect(JSON.parse(JSON.stringify(exported))).toEqual(JSON.parse(JSON.stringify({ ...shown, revision: 3 })));
  });

  it('is built in canonical key order: its digest is core digestOf of the same content', () => {
    const plain = displayMessage({ ...full, id: 'm2', toolCalls: undefined, extra: undefined, tokenCounts: undefined, versions: [], compacted: false, compactedBy: undefined, rewritten: false });
    // the conversation keys in canonical order, as displayContent writes them
    const body: DisplayContent = {
      conversations: [{ depth: 0, link: null, markers: [], messages: [exportedMessage(displayMessage(full)), exportedMessage(plain)], parentId: null, rootId: 's', segments: ['s'], sessions: [], tipId: 's', turns: [] }],
      only: null,
      view: 'display',
    };
    expect(contentDigest(body)).toBe(digestOf(body));
  });

  it('is core digestOf of the content also when user JSON has numeric keys, which JavaScript cannot keep in canonical order', () => {
    // "10" sorts before "9" by code unit, but every object lists "9" first: JSON.stringify alone is not canonical here
    const numeric = displayMessage({ ...full, id: 'm3', extra: { '10': 'ten', '9': 'nine', b: { '2': 1, '11': 2 } }, tokenCounts: { '100': 1, '20': 2 } });
    const body: DisplayContent = {
      conversations: [{ depth: 0, link: null, markers: [], messages: [exportedMessage(numeric)], parentId: null, rootId: 's', segments: ['s'], sessions: [], tipId: 's', turns: [] }],
      only: null,
      view: 'display',
    };
    expect(contentDigest(body)).toBe(digestOf(body));
    // and a content string that merely looks like such a key is no key (the quote in a string is escaped)
    const looksLike = displayMessage({ ...full, id: 'm4', content: '{"9": "x", "10": "y"}' });
    const text: DisplayContent = { ...body, conversations: [{ ...body.conversations[0]!, messages: [exportedMessage(looksLike)] }] };
    expect(contentDigest(text)).toBe(digestOf(text));
  });
});

describe('rendering', () => {
  it('escapes every HTML special character', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('any message text survives every format, and the manifest reads back from it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        for (const format of ['markdown', 'qmd', 'html'] as const) {
          const body = content([message('m1', text)]);
          const declared = manifest(format, contentDigest(body));
          const out = renderExport(body, declared).toString();
          expect(manifestOf(format, out)).toEqual(declared);
          if (format === 'html') {
            expect(out.match(/<script/g)).toHaveLength(1);
            expect(out).toContain(escapeHtml(text));
          } else {
            // the fence is longer than any backtick run, so the text comes back whole (in Quarto, with its shortcodes escaped)
            const fence = out.match(/\n(`{3,})text\n/)![1]!;
            const shown = format === 'qmd' ? escapeShortcodes(text) : text;
            expect(out).toContain(`${fence}text\n${shown}${shown.endsWith('\n') ? '' : '\n'}${fence}`);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('an html manifest cannot be closed by content: < > & are escaped inside the script element', () => {
    const body = content([message('m1', '</script><script>alert(1)</script>')]);
    const declared = { ...manifest('html', contentDigest(body)), requestedId: '</script><b>' };
    const out = renderExport(body, declared).toString();
    expect(out.match(/<\/script>/g)).toHaveLength(1);
    expect(manifestOf('html', out)).toEqual(declared);
  });

  it('a withdrawn continuation is marked in every format, after the compression it withdrew, naming the child', () => {
    const body = content([message('m1', 'before'), message('m2', 'after')]);
    body.conversations[0]!.markers = [
      { kind: 'compression', index: 1, sessionId: 's', childId: 'kid', summaryId: 'sum', summary: 'S', at: '2026-03-01T10:01:00.000Z' },
      { kind: 'withdrawn', index: 1, sessionId: 's', childId: 'kid', at: '2026-03-01T10:02:00.000Z' },
    ];
    for (const format of ['markdown', 'qmd', 'html'] as const) {
      const out = renderExport(body, manifest(format, contentDigest(body))).toString();
      const at = out.indexOf('Continuation withdrawn at 2026-03-01T10:02:00.000Z');
      expect(at).toBeGreaterThan(out.indexOf('Compression at'));
      expect(at).toBeLessThan(out.indexOf('after'));
      expect(out.slice(at, at + 300)).toContain('kid');
    }
  });
});
