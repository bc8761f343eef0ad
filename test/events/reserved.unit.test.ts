import { describe, expect, it } from 'vitest';
import { checkRawAppend, checkRestoredEvent, type RawAppend } from '@session-ledger/events';

const ID = '4b6f2f7e-8f1e-4c55-9d43-6f1f0c1a2b3c';
const T = '2026-03-01T10:00:00.000Z';
const raw = (stream: string, type: string, data: unknown, more: Partial<RawAppend> = {}): RawAppend => ({ stream, id: ID, type, data, expectedRevision: 'any', ...more });
const refused = (append: RawAppend, check: (append: RawAppend) => void = checkRawAppend) => {
  let error: unknown;
  try {
    check(append);
  } catch (caught) {
    error = caught;
  }
  expect(error).toMatchObject({ type: 'invalid_input' });
  const message = (error as Error).message;
  expect(message.split('\n')).toHaveLength(1);
  return message;
};

const message = { content: 'hi', messageId: 'm1', role: 'user', timestamp: T };
const started = { sessionId: 'X', rootId: 'X', parentId: null, link: null, startedAt: T };

/** The check of an import, which restores events as they were stored. */
const restoreRefused = (append: RawAppend) => refused(append, checkRestoredEvent);

describe('checkRawAppend: the one check of every raw append', () => {
  it('refuses every raw append to a session- or memory- stream, however valid the event: their writers keep rules no schema can', () => {
    // each of these decodes, and each broke a rule (outside test, session 17): a second live turn, an add reusing an entry id
    expect(refused(raw('session-X', 'message.appended', message))).toMatch(/^Refused raw append to session-X: session- streams are written only through the sessions API .*turns/);
    refused(raw('session-X', 'turn.started', { turnId: 't2', owner: 'other', startedAt: T, leaseExpiresAt: T }));
    refused(raw('session-X', 'session.started', started, { expectedRevision: 'no_stream' }));
    expect(refused(raw('memory-default', 'memory.entry_added', { entryId: 'e1', target: 'user', content: 'x' }))).toMatch(/memory- streams are written only through the memory ledger .*previousContent/);
    expect(refused(raw('session-X', 'bogus', {}))).toContain('"bogus"');
  });
});

describe('checkRestoredEvent: what an import of a jsonl export restores', () => {
  it('refuses an event of no session type on a session stream, naming the type', () => {
    expect(restoreRefused(raw('session-X', 'bogus', {}))).toContain('"bogus" is not a session event type');
  });

  it('refuses session data that does not match its schema (or a schema version the reader does not know)', () => {
    expect(restoreRefused(raw('session-X', 'message.appended', { ...message, role: 'robot' }))).toMatch(/^Refused raw append to session-X: Invalid message.appended event \(v1\): role: /);
    expect(restoreRefused(raw('session-X', 'message.appended', message, { metadata: { schemaVersion: 9 } }))).toContain('schema version 9');
  });

  it('accepts a valid session event; a segment begins only with its own session.started', () => {
    expect(() => checkRestoredEvent(raw('session-X', 'message.appended', message, { expectedRevision: 4n }))).not.toThrow();
    expect(() => checkRestoredEvent(raw('session-X', 'session.started', started, { expectedRevision: 'no_stream' }))).not.toThrow();
    restoreRefused(raw('session-X', 'message.appended', message, { expectedRevision: 'no_stream' }));
    expect(restoreRefused(raw('session-Y', 'session.started', started, { expectedRevision: 'no_stream' }))).toContain('names another session');
    restoreRefused(raw('session-X', 'session.started', started, { expectedRevision: 3n }));
    restoreRefused(raw('session-bad id', 'session.started', { ...started, sessionId: 'bad id' }, { expectedRevision: 'no_stream' }));
  });

  it('refuses memory events that are not valid memory mutations', () => {
    restoreRefused(raw('memory-default', 'bogus', {}));
    restoreRefused(raw('memory-default', 'memory.entry_added', { entryId: 'e1', target: 'nobody', content: 'x' }));
    restoreRefused(raw('memory-default', 'memory.entry_added', { entryId: 'e1', target: 'user', content: 'x' }, { metadata: { causation: { sessionId: 5 } } }));
    expect(() => checkRestoredEvent(raw('memory-default', 'memory.entry_added', { entryId: 'e1', target: 'user', content: 'x' }))).not.toThrow();
  });

  it('refuses what every raw append refuses: a ledger- stream, a $ name', () => {
    restoreRefused(raw('ledger-audit', 'retention.deleted', {}));
    restoreRefused(raw('$all', 'said', {}));
  });
});

describe('checkRawAppend: on any stream', () => {
  it('refuses a new stream named "." or "..", which no URL can name (GET /streams/.. is /), and still restores one stored before', () => {
    for (const stream of ['.', '..']) {
      expect(refused(raw(stream, 'noted', {}))).toMatch(/URLs resolve/);
      expect(() => checkRestoredEvent(raw(stream, 'noted', {}))).not.toThrow();
    }
    expect(() => checkRawAppend(raw('...', 'noted', {}))).not.toThrow();
  });

  it('refuses every raw append to a ledger- stream: an audit record cannot be forged', () => {
    const forged = { rootId: 'X', streams: [], deleted: ['session-X'], kept: [], complete: true };
    expect(refused(raw('ledger-audit', 'retention.deleted', forged))).toContain('written only by session-ledger itself');
    refused(raw('ledger-memory-providers', 'anything', {}));
  });

  it("refuses a stream name or event type beginning with $ (EventStoreDB's own: they would not survive a move to it), and nothing else for a $ elsewhere", () => {
    for (const stream of ['$all', '$$raw', '$settings', '$et-x', '$ce-chat']) expect(refused(raw(stream, 'said', {}))).toContain("EventStoreDB's own");
    expect(refused(raw('chat', '$type', {}))).toContain("EventStoreDB's own");
    expect(() => checkRawAppend(raw('chat$1', 'said$', { $: 1 }))).not.toThrow();
  });

  it('refuses control characters and lone surrogates in the stream, type or id, and lone surrogates in data and metadata, on any stream', () => {
    expect(refused(raw('orders', 'placed\u0007', {}))).toContain('control character');
    expect(refused(raw('orders', 'placed\n', {}))).toContain('control character');
    expect(refused(raw('orders', 'placed\ud800', {}))).toContain('lone surrogate');
    expect(refused(raw('orders', 'placed', {}, { id: `${ID}\udc00` }))).toContain('event id');
    refused(raw('orders\u0000', 'placed', {}));
    refused(raw('orders', 'placed', { text: 'a\udbffb' }));
    refused(raw('orders', 'placed', { ['\ud834']: 1 }));
    refused(raw('orders', 'placed', {}, { metadata: { note: ['\udd1e'] } }));
    // a well-formed pair and ordinary text (newlines in data included) pass
    expect(() => checkRawAppend(raw('orders', 'placed \ud834\udd1e', { text: 'line\nline \ud834\udd1e' }))).not.toThrow();
  });
});
