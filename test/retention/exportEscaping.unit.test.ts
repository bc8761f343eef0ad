import { describe, expect, it } from 'vitest';
import { contentDigest, manifestOf, renderExport, type DisplayContent, type ExportedConversation, type ExportedMessage, type Manifest, type RawContent } from '@session-ledger/retention';

/** What pandoc or Quarto would turn into live HTML, a shortcode, a link or math if it reached the text unescaped. */
const HOSTILE = '<img src=x onerror=alert(1)>&amp;[a](javascript:x)`{=html}$x$ @cite {{< env HOME >}}\n\n<script>y</script>';

const message = (extra: Partial<ExportedMessage> = {}): ExportedMessage => ({
  id: 'm1',
  sessionId: 's',
  revision: 1,
  role: 'tool',
  content: 'fine',
  timestamp: '2026-03-01T10:00:00.000Z',
  compacted: false,
  rewritten: false,
  versions: [],
  ...extra,
});

const conversation = (extra: Partial<ExportedConversation> = {}): ExportedConversation => ({
  rootId: 's',
  tipId: 's',
  link: null,
  parentId: null,
  depth: 0,
  segments: ['s'],
  messages: [message()],
  markers: [],
  sessions: [],
  turns: [],
  ...extra,
});

const display = (conversations: ExportedConversation[]): DisplayContent => ({ view: 'display', only: null, conversations });

const manifest = (format: Manifest['format'], view: Manifest['view'], extra: Partial<Manifest> = {}): Manifest => ({
  kind: 'manifest',
  tool: 'session-ledger',
  version: 1,
  format,
  view,
  lineage: 'logical',
  filtered: false,
  only: null,
  requestedId: 's',
  rootId: 's',
  sessionIds: ['s'],
  conversations: [{ rootId: 's', tipId: 's', link: null, parentId: null, segments: ['s'] }],
  streams: [{ stream: 'session-s', revision: 1, chainHead: 'ab' }],
  messageCount: 1,
  digest: 'sha256:00',
  exportedAt: '2026-03-01T10:00:00.000Z',
  ...extra,
});

const at = '2026-03-01T10:00:00.000Z';

/** Every field a display export interpolates outside a fenced block, each given the hostile text in turn. */
const DISPLAY_CASES: Array<[string, DisplayContent, Partial<Manifest>?]> = [
  ['tool name', display([conversation({ messages: [message({ toolName: HOSTILE })] })])],
  ['tool call id', display([conversation({ messages: [message({ toolCallId: HOSTILE })] })])],
  ['message id', display([conversation({ messages: [message({ id: HOSTILE })] })])],
  ['role', display([conversation({ messages: [message({ role: HOSTILE as never })] })])],
  ['timestamp', display([conversation({ messages: [message({ timestamp: HOSTILE })] })])],
  ['compacted by', display([conversation({ messages: [message({ compacted: true, compactedBy: HOSTILE })] })])],
  [
    'rewrite time and segment',
    display([conversation({ messages: [message({ rewritten: true, versions: [{ content: 'old', replacedAt: HOSTILE, rewrittenIn: HOSTILE }] })] })]),
  ],
  ['conversation root id', display([conversation({ rootId: HOSTILE })])],
  ['delegated parent id', display([conversation({ link: 'delegation', parentId: HOSTILE, depth: 1 })])],
  ['segment ids', display([conversation({ segments: [HOSTILE, `${HOSTILE}\``] })])],
  ['end reason', display([conversation({ markers: [{ kind: 'ended', index: 1, sessionId: 's', reason: HOSTILE, at }] })])],
  ['end time', display([conversation({ markers: [{ kind: 'ended', index: 1, sessionId: 's', at: HOSTILE }] })])],
  ['compaction summary id', display([conversation({ markers: [{ kind: 'compaction', index: 1, sessionId: 's', summaryId: HOSTILE, summary: HOSTILE, replaced: 1, at }] })])],
  [
    'compression segment and child',
    display([conversation({ markers: [{ kind: 'compression', index: 1, sessionId: HOSTILE, childId: HOSTILE, summaryId: 'x', summary: HOSTILE, at }] })]),
  ],
  ['child link and id', display([conversation({ markers: [{ kind: 'child', index: 1, sessionId: 's', childId: HOSTILE, link: HOSTILE as never, at }] })])],
  ['message content (fenced)', display([conversation({ messages: [message({ content: HOSTILE, reasoning: HOSTILE, extra: { title: HOSTILE } })] })])],
  ['session title, model, source, extra and turn owner (fenced JSON)', display([conversation({ sessions: [{ sessionId: 's', title: HOSTILE, model: HOSTILE, source: HOSTILE, extra: { note: HOSTILE } }], turns: [{ turnId: 't', owner: HOSTILE, ended: { outcome: HOSTILE } }] })])],
  ['manifest root id, lineage, roles and digest', display([conversation()]), { rootId: HOSTILE, lineage: HOSTILE as never, filtered: true, only: [HOSTILE as never], digest: HOSTILE }],
];

const rawEvent = (extra: Partial<RawContent['events'][number]> = {}): RawContent['events'][number] => ({
  stream: 'session-s',
  id: 'e1',
  type: 'session.started',
  revision: 0,
  position: 1,
  data: { title: HOSTILE, model: HOSTILE, source: HOSTILE },
  metadata: {},
  created: at,
  ...extra,
});

const RAW_CASES: Array<[string, RawContent]> = [
  ['stream name', { view: 'raw', events: [rawEvent({ stream: HOSTILE })] }],
  ['event type', { view: 'raw', events: [rawEvent({ type: HOSTILE })] }],
  ['event id', { view: 'raw', events: [rawEvent({ id: HOSTILE })] }],
  ['created', { view: 'raw', events: [rawEvent({ created: HOSTILE })] }],
  ['revision', { view: 'raw', events: [rawEvent({ revision: HOSTILE })] }],
  ['title, model and source (data, fenced)', { view: 'raw', events: [rawEvent()] }],
];

/**
 * The Markdown text with what is literal by construction taken out (the front matter, our fenced
 * blocks, code spans) and backslash escapes consumed: what is left is what pandoc or Quarto would
 * interpret. Nothing of the hostile text may survive there as syntax.
 */
const interpreted = (text: string): string => {
  const body = text.slice(text.indexOf('\n---\n', 3) + 5);
  const lines = body.split('\n');
  const kept: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(`{3,})(text|json)$/.exec(lines[index]!);
    if (open) {
      while (lines[++index] !== open[1]) if (index >= lines.length) throw new Error('unclosed fence');
      continue;
    }
    if (lines[index] !== ':::: {.callout-note}') kept.push(lines[index]!); // the qmd callout's own attribute
  }
  // left to right, as CommonMark reads a line: a backslash escape, or a code span (a run of n backticks to the next run of exactly n)
  const text2 = kept.join('\n');
  let left = '';
  for (let index = 0; index < text2.length; ) {
    if (text2[index] === '\\' && index + 1 < text2.length) {
      left += 'ESC';
      index += 2;
      continue;
    }
    const run = /^`+/.exec(text2.slice(index))?.[0];
    if (run) {
      const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
      close.lastIndex = index + run.length;
      const end = close.exec(text2);
      if (end) {
        left += 'CODE';
        index = end.index + run.length;
        continue;
      }
    }
    left += text2[index];
    index += 1;
  }
  return left;
};

const expectInert = (text: string) => {
  const left = interpreted(text);
  for (const syntax of ['<', '&', '[', '`', '{', '$', '@', '*', '_']) {
    // our own text uses * and _ only as **bold** and *tags* around escaped text
    if (syntax === '*' || syntax === '_') continue;
    expect(left, `unescaped ${syntax}`).not.toContain(syntax);
  }
  expect(left).not.toMatch(/\n\n<|^</m);
};

describe('markdown and qmd exports escape every interpolated field', () => {
  for (const format of ['markdown', 'qmd'] as const) {
    it.each(DISPLAY_CASES)(`${format}: %s`, (_name, content, extra = {}) => {
      const declared = { ...manifest(format, 'display', extra), digest: extra.digest ?? contentDigest(content) };
      const out = renderExport(content, declared).toString();
      expectInert(out);
      expect(manifestOf(format, out)).toEqual(declared);
      if (format === 'qmd') expect(out.replace(/\{\{\{</g, '')).not.toContain('{{<');
    });

    it.each(RAW_CASES)(`${format} raw view: %s`, (_name, content) => {
      const out = renderExport(content, manifest(format, 'raw', { digest: contentDigest(content) })).toString();
      expectInert(out);
    });
  }

  // The README's promise, that ids are code spans: escaped text is still a link, an emoji or a dash to a
  // GitHub-style or smart-punctuation renderer (outside test, session 16: `www.evil.example`, `:rocket:`, `a--b`).
  it.each(['markdown', 'qmd'] as const)('%s: writes every id in a heading or marker line as a code span', (format) => {
    const ids = ['www.evil.example', ':rocket:', 'a--b__c__', 'sum.example.com', 'seg:smile:', 'next--seg'];
    const content = display([
      conversation({
        rootId: 'a--b__c__',
        segments: ['a--b__c__'],
        markers: [
          { kind: 'child', index: 1, sessionId: 'a--b__c__', childId: 'www.evil.example', link: 'delegation', at },
          { kind: 'compaction', index: 1, sessionId: 'a--b__c__', summaryId: 'sum.example.com', summary: 'fine', replaced: 1, at },
          { kind: 'compression', index: 1, sessionId: 'seg:smile:', childId: 'next--seg', summaryId: 'x', summary: 'fine', at },
        ],
      }),
      conversation({ rootId: 'www.evil.example', segments: ['www.evil.example'], link: 'delegation', parentId: ':rocket:', depth: 1 }),
    ]);
    const out = renderExport(content, { ...manifest(format, 'display'), digest: contentDigest(content) }).toString();
    const left = interpreted(out);
    for (const id of ids) expect(left, id).not.toContain(id);
    expect(out).toContain('## Delegated conversation `www.evil.example` (started from `:rocket:`, depth 1)');
  });

  const htmlCases: Array<[string, DisplayContent | RawContent, Partial<Manifest>]> = [
    ...DISPLAY_CASES.map(([name, content, extra]): [string, DisplayContent, Partial<Manifest>] => [name, content, extra ?? {}]),
    ...RAW_CASES.map(([name, content]): [string, RawContent, Partial<Manifest>] => [name, content, {}]),
  ];
  it.each(htmlCases)('html: %s', (_name, content, extra) => {
    const out = renderExport(content, manifest('html', content.view, extra)).toString();
    // the only elements are the template's own: no field opens one
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<script>');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
