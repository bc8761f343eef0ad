import { describe, expect, it } from 'vitest';
import { manifestOf, renderExport, type DisplayContent, type Manifest, type RawContent } from '@session-ledger/retention';

/** Longer than any string V8 makes (2^29 - 24 characters on 64-bit Node 20). */
const PAST_STRINGS = 2 ** 29;
const CHUNK = 'x'.repeat(2 ** 20);
const EVENTS = PAST_STRINGS / CHUNK.length + 8;

const raw: RawContent = {
  view: 'raw',
  events: Array.from({ length: EVENTS }, (_, revision) => ({
    stream: 'session-big',
    id: `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`,
    type: 'message.appended',
    revision,
    position: revision + 1,
    data: { content: CHUNK },
    metadata: {},
    created: '2026-03-01T10:00:00.000Z',
  })),
};

const manifest = (format: Manifest['format']) => ({ kind: 'manifest', format, view: 'raw', digest: 'sha256:d' }) as unknown as Manifest;

/**
 * A conversation of 1.3 million messages could never be exported as jsonl, nor so deleted after a
 * verified export: the file was built as one string, past V8's longest (internal error "Invalid string
 * length", exit 70; outside test, session 23).
 */
describe('an export larger than any string', () => {
  it('jsonl is rendered line by line into bytes, each line whole, the manifest first', () => {
    const bytes = renderExport(raw, manifest('jsonl'));
    expect(bytes.length).toBeGreaterThan(PAST_STRINGS);
    expect(manifestOf('jsonl', bytes.subarray(0, bytes.indexOf(0x0a)).toString())).toMatchObject({ kind: 'manifest', format: 'jsonl' });
    const lastLine = bytes.subarray(bytes.lastIndexOf(0x0a, bytes.length - 2) + 1, bytes.length - 1).toString();
    expect(JSON.parse(lastLine)).toMatchObject({ revision: EVENTS - 1, data: { content: CHUNK } });
  });

  it('a text format past it is refused in words (jsonl named), not an internal error', () => {
    const messages = Array.from({ length: EVENTS }, (_, n) => ({ id: `m${n}`, sessionId: 'big', revision: n, role: 'user', content: CHUNK, timestamp: '2026-03-01T10:00:00.000Z', compacted: false, rewritten: false, versions: [] }));
    const display = { view: 'display', only: null, conversations: [{ rootId: 'big', tipId: 'big', link: null, parentId: null, depth: 0, segments: ['big'], messages, markers: [], sessions: [], turns: [] }] } as unknown as DisplayContent;
    const declared: Manifest = {
      kind: 'manifest', tool: 'session-ledger', version: 1, format: 'markdown', view: 'display', lineage: 'logical', filtered: false, only: null,
      requestedId: 'big', rootId: 'big', sessionIds: ['big'], conversations: [{ rootId: 'big', tipId: 'big', link: null, parentId: null, segments: ['big'] }],
      streams: [{ stream: 'session-big', revision: EVENTS, chainHead: 'ab' }], messageCount: EVENTS, digest: 'sha256:d', exportedAt: '2026-03-01T10:00:00.000Z',
    };
    expect(() => renderExport(display, declared)).toThrow(expect.objectContaining({ type: 'invalid_input', message: expect.stringMatching(/too large to render as one markdown document.*jsonl/) }));
  });
});
