import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { documentValidator } from '../support/jsonSchema.js';
import { rawRequest, readRawSse, startServer, type RawResponse } from '../support/http.js';

type Json = Record<string, any>;

interface Example {
  operationId: string;
  path: string;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  status: number;
}

/**
 * One valid call per documented operation, in an order that builds the state the next needs. The test
 * fails when the document has an operation this table does not call (a route added without a contract
 * test), or the table calls one the document does not have.
 */
const examples = (state: { turnId?: string; tipId?: string }): Array<Example | (() => Example)> => [
  { operationId: 'getHealth', path: '/health', status: 200 },
  { operationId: 'getOpenapiJson', path: '/openapi.json', status: 200 },
  { operationId: 'postStreamsStream', path: '/streams/contract-raw', body: { type: 'noted', data: { a: 1 }, expectedRevision: 'no_stream' }, status: 201 },
  { operationId: 'getStreamsStream', path: '/streams/contract-raw', query: 'from=0&max=10', status: 200 },
  { operationId: 'getAll', path: '/all', query: 'max=5', status: 200 },
  { operationId: 'getSubscribe', path: '/subscribe', query: 'prefix=contract-', status: 200 },
  { operationId: 'getAuditVerify', path: '/audit/verify', status: 200 },
  { operationId: 'getAuditDigest', path: '/audit/digest', status: 200 },
  { operationId: 'getAuditProofStreamRevision', path: '/audit/proof/contract-raw/0', status: 200 },
  { operationId: 'getAuditLeavesIndexProof', path: '/audit/leaves/0/proof', status: 200 },
  { operationId: 'postSessions', path: '/sessions', body: { id: 'contract-1', title: 'contract' }, status: 201 },
  { operationId: 'getSessions', path: '/sessions', status: 200 },
  { operationId: 'postSessionsIdTurns', path: '/sessions/contract-1/turns', body: { ttl: '1d', owner: 'test' }, status: 201 },
  () => ({ operationId: 'postSessionsIdTurnsTurnRenew', path: `/sessions/contract-1/turns/${state.turnId}/renew`, body: { ttl: 60_000 }, status: 200 }),
  () => ({ operationId: 'postSessionsIdMessages', path: '/sessions/contract-1/messages', body: { role: 'user', content: 'hello', id: 'm-1', turnId: state.turnId }, status: 201 }),
  { operationId: 'patchSessionsIdMessagesMessage', path: '/sessions/contract-1/messages/m-1', body: { content: 'hello again' }, status: 200 },
  () => ({ operationId: 'postSessionsIdTurnsTurnEnd', path: `/sessions/contract-1/turns/${state.turnId}/end`, body: { outcome: 'completed' }, status: 200 }),
  { operationId: 'getSessionsId', path: '/sessions/contract-1', query: 'view=active', status: 200 },
  { operationId: 'getSessionsId', path: '/sessions/contract-1', query: 'view=display', status: 200 },
  { operationId: 'getSessionsId', path: '/sessions/contract-1', query: 'view=raw', status: 200 },
  { operationId: 'getSessionsIdTranscript', path: '/sessions/contract-1/transcript', status: 200 },
  { operationId: 'getSearch', path: '/search', query: 'q=hello&limit=5&role=user&since=7d', status: 200 },
  { operationId: 'getSessionsIdEvents', path: '/sessions/contract-1/events', query: 'type=message.appended', status: 200 },
  { operationId: 'postSessionsIdCompact', path: '/sessions/contract-1/compact', body: { through: 'm-1', summary: 'said hello' }, status: 200 },
  { operationId: 'getSessionsIdExport', path: '/sessions/contract-1/export', query: 'format=markdown&only=user', status: 200 },
  { operationId: 'getSessionsIdExport', path: '/sessions/contract-1/export', query: 'format=html', status: 200 },
  { operationId: 'getSessionsIdExport', path: '/sessions/contract-1/export', query: 'format=jsonl', status: 200 },
  { operationId: 'postSessionsIdCompress', path: '/sessions/contract-1/compress', body: { summary: 'so far' }, status: 201 },
  () => ({ operationId: 'postSessionsIdEnd', path: `/sessions/${state.tipId}/end`, body: { reason: 'done' }, status: 200 }),
  () => ({ operationId: 'postSessionsIdReopen', path: `/sessions/${state.tipId}/reopen`, body: {}, status: 201 }),
  () => ({ operationId: 'postSessionsIdReopen', path: `/sessions/${state.tipId}/reopen`, body: {}, status: 200 }),
  { operationId: 'getSessionsIdDeletion', path: '/sessions/contract-1/deletion', query: 'lineage=logical', status: 200 },
  { operationId: 'deleteSessionsId', path: '/sessions/contract-1', headers: { 'if-match': '*' }, status: 200 },
  // A deleted session is gone (410) for every operation that names it; no raw stream write reaches a session stream (400).
  { operationId: 'postSessions', path: '/sessions', body: { id: 'contract-1' }, status: 410 },
  {
    operationId: 'postStreamsStream',
    path: '/streams/session-contract-1',
    body: { type: 'message.appended', data: { messageId: 'm-9', role: 'user', content: 'x', timestamp: '2026-12-01T00:00:00Z' } },
    status: 400,
  },
  { operationId: 'getAuditVerify', path: '/audit/verify', query: 'stream=session-contract-1', status: 410 },
  { operationId: 'postMemoryAdd', path: '/memory/add', body: { target: 'memory', content: 'Uses npm' }, status: 200 },
  { operationId: 'postMemoryReplace', path: '/memory/replace', body: { target: 'memory', old: 'npm', content: 'Uses pnpm' }, status: 200 },
  { operationId: 'postMemoryRemove', path: '/memory/remove', body: { target: 'memory', old: 'pnpm' }, status: 200 },
  { operationId: 'postMemoryApply', path: '/memory/apply', body: { operations: [{ op: 'add', target: 'user', content: 'Likes tea' }] }, status: 200 },
  { operationId: 'getMemoryEntries', path: '/memory/entries', query: 'target=user', status: 200 },
  { operationId: 'getMemoryProviders', path: '/memory/providers', status: 200 },
  { operationId: 'getMemoryProvidersName', path: '/memory/providers/markdown-mirror', status: 200 },
  { operationId: 'postMemoryProvidersResume', path: '/memory/providers/resume', body: {}, status: 200 },
  { operationId: 'postMemoryMirrorRebuild', path: '/memory/mirror/rebuild', status: 200 },
  { operationId: 'postMemoryMirrorAdopt', path: '/memory/mirror/adopt', body: { dryRun: true }, status: 200 },
];

describe('HTTP contract: every route as GET /openapi.json documents it', { timeout: 120_000 }, () => {
  const dir = tempDir();
  let service: Awaited<ReturnType<typeof startServer>>;
  let doc: Json;
  const operations = new Map<string, { method: string; path: string; op: Json }>();
  beforeAll(async () => {
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` }, ['--mirror', join(dir, 'mirror')]);
    const response = await rawRequest(service.url, { path: '/openapi.json' });
    doc = response.json();
    for (const [path, methods] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(methods as Json)) operations.set(op.operationId, { method: method.toUpperCase(), path, op });
    }
  });
  afterAll(async () => service?.stop());

  /** A validator built from the document's JSON Schema (not from the server's own zod schemas). */
  let compiler: ReturnType<typeof documentValidator> | undefined;
  const validator = (schema: Json) => (compiler ??= documentValidator(doc))(schema);

  const call = (method: string, example: Example, extra: { query?: string; body?: unknown } = {}): Promise<RawResponse> => {
    const query = [example.query, extra.query].filter(Boolean).join('&');
    const body = 'body' in extra ? extra.body : example.body;
    return rawRequest(service.url, {
      method,
      path: `${example.path}${query ? `?${query}` : ''}`,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...example.headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };

  /** The response is one the operation documents: its status, its media type, and a body that matches the schema. */
  const checkResponse = (op: Json, response: RawResponse) => {
    const documented = op.responses[String(response.status)] ?? (response.status >= 400 ? op.responses.default : undefined);
    expect({ operation: op.operationId, status: response.status, documented: documented !== undefined }).toEqual({ operation: op.operationId, status: response.status, documented: true });
    const content = (documented.content ?? {}) as Json;
    if (Object.keys(content).length === 0) return;
    // The answer's media type is one the document lists for that status (an export has one per format).
    const mediaType = String(response.headers['content-type'] ?? '').split(';')[0]!;
    const entry = content[mediaType];
    expect({ operation: op.operationId, status: response.status, mediaType, documented: entry !== undefined }).toEqual({ operation: op.operationId, status: response.status, mediaType, documented: true });
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      const parsed = validator(entry.schema).safeParse(response.json());
      expect({ operation: op.operationId, issues: parsed.error?.issues ?? [] }).toEqual({ operation: op.operationId, issues: [] });
    }
  };

  it('answers every documented operation with a documented status and a body matching its schema', async () => {
    const state: { turnId?: string; tipId?: string } = {};
    const called = new Set<string>();
    for (const entry of examples(state)) {
      const example = typeof entry === 'function' ? entry() : entry;
      const operation = operations.get(example.operationId);
      expect({ operationId: example.operationId, documented: operation !== undefined }).toEqual({ operationId: example.operationId, documented: true });
      const { method, op } = operation!;
      expect(example.path.replace(/[^/]+/g, 'x')).toBe(operation!.path.replace(/[^/]+/g, 'x'));
      called.add(example.operationId);
      if (op.responses['200']?.content?.['text/event-stream']) {
        const stream = await readRawSse(`${service.url}${example.path}?${example.query ?? ''}`, { until: (text) => text.includes('event: caught-up') });
        expect([stream.status, stream.headers['content-type']]).toEqual([200, 'text/event-stream; charset=utf-8']);
        continue;
      }
      const response = await call(method, example);
      expect({ operation: example.operationId, status: response.status, body: response.text.slice(0, 300) }).toMatchObject({ operation: example.operationId, status: example.status });
      checkResponse(op, response);
      if (example.operationId === 'postSessionsIdTurns') state.turnId = response.json().turnId;
      if (example.operationId === 'postSessionsIdCompress') state.tipId = response.json().sessionId;
    }
    expect([...operations.keys()].filter((id) => !called.has(id))).toEqual([]);
  });

  it('refuses an unknown key in every documented body, and an unknown query parameter (__proto__ included) on every route, with a 400 problem', async () => {
    const state = { turnId: 'some-turn', tipId: 'some-tip' };
    for (const entry of examples(state)) {
      const example = typeof entry === 'function' ? entry() : entry;
      const { method, op } = operations.get(example.operationId)!;
      if (op.requestBody) {
        const body = Array.isArray(example.body) || example.body === undefined ? { unexpected: true } : { ...(example.body as Json), unexpected: true };
        const response = await call(method, example, { body });
        expect({ operation: example.operationId, status: response.status, code: response.json().code }).toEqual({ operation: example.operationId, status: 400, code: 'invalid_input' });
        checkResponse(op, response);
      }
      // `__proto__` too: read into a plain object it set the prototype and vanished, so it was accepted.
      for (const query of ['unexpected=1', '__proto__=1']) {
        const response = await call(method, example, { query });
        expect({ operation: example.operationId, query, status: response.status, code: response.json().code }).toEqual({ operation: example.operationId, query, status: 400, code: 'invalid_input' });
        checkResponse(op, response);
      }
    }
  });

  it('answers HEAD on every GET and OPTIONS on every path, with Allow naming the documented methods', async () => {
    for (const [path, methods] of Object.entries(doc.paths as Json)) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x');
      const allow = await rawRequest(service.url, { method: 'OPTIONS', path: concrete });
      // Every documented path template this concrete path matches (/memory/providers/resume is also a provider's name).
      const matching = Object.entries(doc.paths as Json).filter(([template]) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(concrete));
      const documented = [...new Set(matching.flatMap(([, ops]) => Object.keys(ops as Json).map((method) => method.toUpperCase())))];
      expect({ path, status: allow.status, allow: String(allow.headers.allow).split(', ').sort() }).toEqual({
        path,
        status: 204,
        allow: [...documented, ...(documented.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].sort(),
      });
      const get = (methods as Json).get;
      if (get === undefined || get.responses['200']?.content?.['text/event-stream']) continue;
      const [answer, head] = await Promise.all(['GET', 'HEAD'].map((method) => rawRequest(service.url, { method, path: concrete })));
      expect({ path, head: head!.status, body: head!.text }).toEqual({ path, head: answer!.status, body: '' });
    }
  });

  it('parses durations like the CLI (1d works) and names fields, never CLI flags, in its messages', async () => {
    const post = (path: string, body: unknown) =>
      rawRequest(service.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/sessions', { id: 'flags-1' })).status).toBe(201);
    const turn = await post('/sessions/flags-1/turns', { ttl: '1d' });
    expect(turn.status).toBe(201);
    expect(Date.parse(turn.json().leaseExpiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const refusals = [
      await post('/sessions/flags-1/turns', { ttl: 'soon' }),
      await post('/sessions/flags-1/messages', { role: 'wizard', content: 'x' }),
      await rawRequest(service.url, { path: '/sessions/flags-1/export?format=jsonl&view=display' }),
      await rawRequest(service.url, { path: '/sessions/flags-1/export?only=user,robot' }),
    ];
    const union = (await post('/memory/apply', { operations: 'not a list' })).json();
    expect([union.status, union.details.field, union.detail]).toEqual([400, 'operations', 'Invalid body at operations: Invalid input: expected array, received string']);
    for (const response of refusals) {
      const { status, detail } = response.json();
      expect({ status, detail, namesAFlag: /(^|[\s(])--[a-z]/.test(detail) }).toEqual({ status: 400, detail, namesAFlag: false });
    }
  });

  it('publishes the id rule it enforces: an id the document refuses is refused, one it accepts is taken (outside test, session 24)', async () => {
    const start = operations.get('postSessions')!.op;
    const idSchema = validator(start.requestBody.content['application/json'].schema);
    const post = (body: unknown) => rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // before, the document allowed any non-control string and the server refused these
    for (const id of ['café-1', 'a b', 'x'.repeat(201), 'a/b']) {
      expect({ id, documented: idSchema.safeParse({ id }).success }).toEqual({ id, documented: false });
      expect({ id, status: (await post({ id })).status }).toEqual({ id, status: 400 });
    }
    for (const id of ['ok_id-1.2:3', 'y'.repeat(200)]) {
      expect({ id, documented: idSchema.safeParse({ id }).success }).toEqual({ id, documented: true });
      expect({ id, status: (await post({ id })).status }).toEqual({ id, status: 201 });
    }
  });

  it('says which operations take a unique id prefix or a title for {id}, and those do while the others refuse them (outside test, session 33, F4)', async () => {
    const idOf = (op: Json) => (op.parameters as Json[] | undefined)?.find((parameter) => parameter.in === 'path' && parameter.name === 'id');
    const selectors = [...operations.values()].filter(({ op }) => /prefix/.test(idOf(op)?.schema?.description ?? '')).map(({ op }) => op.operationId);
    expect(selectors.sort()).toEqual(['getSessionsId', 'getSessionsIdTranscript']);
    await rawRequest(service.url, { method: 'POST', path: '/sessions', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'selectable-1', title: 'Selectable by title' }) });
    for (const selector of ['selectable-', encodeURIComponent('Selectable by title')]) {
      for (const { path } of ['getSessionsId', 'getSessionsIdTranscript'].map((id) => operations.get(id)!)) {
        const response = await rawRequest(service.url, { path: path.replace('{id}', selector) });
        expect({ path, selector, status: response.status }).toEqual({ path, selector, status: 200 });
      }
      // Not a session id: unknown (404), or not an id at all (400, a title with spaces).
      const review = await rawRequest(service.url, { path: operations.get('getSessionsIdDeletion')!.path.replace('{id}', selector) });
      expect({ selector, refused: [400, 404].includes(review.status) }).toEqual({ selector, refused: true });
    }
  });

  it('publishes the event id rule it enforces on a raw append: a UUID (outside test, session 29, F3)', async () => {
    const append = operations.get('postStreamsStream')!.op;
    const bodySchema = validator(append.requestBody.content['application/json'].schema);
    const post = (id: string) =>
      rawRequest(service.url, { method: 'POST', path: '/streams/contract-ids', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'noted', data: {}, id }) });
    // before, the document allowed any non-control string and the server refused all but a UUID
    for (const id of ['sA-c0-i0', '1', '0f8fad5b-d9cb-469f-a165-70867728950', '0f8fad5b-d9cb-469f-a165-70867728950ez']) {
      expect({ id, documented: bodySchema.safeParse({ type: 't', data: {}, id }).success }).toEqual({ id, documented: false });
      expect({ id, status: (await post(id)).status }).toEqual({ id, status: 400 });
    }
    for (const id of ['0f8fad5b-d9cb-469f-a165-70867728950e', '0F8FAD5B-D9CB-469F-A165-70867728950F']) {
      expect({ id, documented: bodySchema.safeParse({ type: 't', data: {}, id }).success }).toEqual({ id, documented: true });
      expect({ id, status: (await post(id)).status }).toEqual({ id, status: 201 });
    }
  });

  it('accepts what the document accepts and refuses (400) what it refuses, body by body (outside test, session 30)', async () => {
    const post = (path: string, body: unknown) => rawRequest(service.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/sessions', { id: 'agree-1' })).status).toBe(201);
    const timestamp = '2026-12-01T10:00:00.000Z';
    // Each body on the edge of a rule the server enforces; before, the document accepted the refused ones.
    const cases: Array<[operationId: string, path: string, body: Json]> = [
      ['postSessions', '/sessions', { id: 'agree-2', parentId: 'agree-1' }],
      ['postSessions', '/sessions', { id: 'agree-3', link: 'branch' }],
      ['postSessions', '/sessions', { id: 'agree-4', parentId: 'agree-1', link: 'branch' }],
      ['postSessions', '/sessions', { id: 'agree-5', parentId: null, link: null }],
      ['postSessions', '/sessions', { id: '..' }],
      ['postSessions', '/sessions', { id: '...' }],
      ['postSessionsIdCompress', '/sessions/agree-1/compress', { summary: 's', childId: '.' }],
      ['postSessionsIdTurns', '/sessions/agree-1/turns', { turnId: '..' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', id: '.' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', timestamp: 'yesterday' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', timestamp: '2026-12-01' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', timestamp }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', timestamp: '2026-12-01T10:00:00+02:00' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'tool', content: 'x', toolCallId: '' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'tool', content: 'x', tool_call_id: '' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'tool', content: 'x', toolName: '' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'tool', content: 'x', name: '' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'tool', content: 'x', toolCallId: 'c', toolName: 't' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', expectedRevision: '9223372036854775808' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', expectedRevision: '9999999999999999999' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', expectedRevision: '9223372036854775807' }],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', { role: 'user', content: 'x', expectedRevision: '0999' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: '' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: ' \t\n' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: 'a\n § \nb' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: 'a\r§\rb' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: 'costs 5 § a month' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: 'agree', profile: 'bad/name' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: 'agree', profile: '' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: 'agree too', profile: 'good.name-1' }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: 'agree', causation: { sessionId: 'a\u0001' } }],
      ['postMemoryAdd', '/memory/add', { target: 'memory', content: 'agree three', causation: { sessionId: 'agree-1', turnId: 't-1' } }],
      ['postMemoryRemove', '/memory/remove', { target: 'memory', old: ' ' }],
      ['postMemoryApply', '/memory/apply', { operations: [{ op: 'add', target: 'user', content: '' }] }],
      ['postMemoryApply', '/memory/apply', { operations: [{ op: 'add', target: 'nobody', content: 'x' }] }],
      ['postMemoryApply', '/memory/apply', { operations: [{ op: 'add', target: 'user', content: 'tea', extra: 1 }] }],
      ['postMemoryApply', '/memory/apply', [{ op: 'add', target: 'user', content: 'coffee' }]],
      ['postMemoryApply', '/memory/apply', { operations: [] }],
      ['postMemoryApply', '/memory/apply', { operations: [{ op: 'add', target: 'user', content: 'x y' }], profile: 'a b' }],
      ['postMemoryProvidersResume', '/memory/providers/resume', { name: '' }],
      // The owner's and the ttl's bounds were in prose or nowhere (outside test, session 31, F2, F3).
      ['postSessionsIdTurns', '/sessions/agree-none/turns', { owner: '' }],
      ['postSessionsIdTurns', '/sessions/agree-none/turns', { owner: 'a\u0000' }],
      ['postSessionsIdTurns', '/sessions/agree-none/turns', { owner: 'me' }],
      ...['0s', '0000ms', '367d', '53w', '8785h', '999999999999w', '366d', '52w', '0030s', '31622400000ms', '1m', 'x', '000000001d'].map(
        (ttl): [string, string, Json] => ['postSessionsIdTurns', '/sessions/agree-none/turns', { ttl }],
      ),
      ['postSessionsIdTurnsTurnRenew', '/sessions/agree-none/turns/t/renew', { ttl: '0ms' }],
      ['postSessionsIdTurnsTurnRenew', '/sessions/agree-none/turns/t/renew', { ttl: '999999999999d' }],
      // A key __proto__, at any depth (outside test, session 31, F4); JSON.parse makes it an own key.
      ['postStreamsStream', '/streams/contract-proto', JSON.parse('{"type":"t","data":{"a":[{"__proto__":1}]}}')],
      ['postStreamsStream', '/streams/contract-proto', JSON.parse('{"type":"t","data":{},"metadata":{"__proto__":{}}}')],
      ['postStreamsStream', '/streams/contract-proto', JSON.parse('{"type":"t","data":{"proto":{"__proto_":1}}}')],
      ['postSessionsIdMessages', '/sessions/agree-1/messages', JSON.parse('{"role":"user","content":"x","tokenCounts":{"__proto__":1}}')],
    ];
    const disagreements: Json[] = [];
    for (const [operationId, path, body] of cases) {
      const { op } = operations.get(operationId)!;
      const documented = validator(op.requestBody.content['application/json'].schema).safeParse(body).success;
      const response = await post(path, body);
      const taken = response.status !== 400;
      if (documented !== taken) disagreements.push({ operationId, body, documented, status: response.status, detail: response.json().detail });
    }
    // The same for query parameters.
    const queries: Array<[operationId: string, path: string, parameter: string, value: string]> = [
      ['getMemoryEntries', '/memory/entries', 'profile', 'bad/name'],
      ['getMemoryEntries', '/memory/entries', 'profile', 'fine'],
      ['getStreamsStream', '/streams/contract-raw', 'from', '9223372036854775808'],
      ['getStreamsStream', '/streams/contract-raw', 'from', '9223372036854775807'],
      ['getAll', '/all', 'from', '19999999999999999999'],
      // Ranges published as patterns (outside test, session 31, F6) and q counted in characters (F7).
      ...['0', '1', '0100', '10000', '10001', '99999'].map((value): [string, string, string, string] => ['getStreamsStream', '/streams/contract-raw', 'max', value]),
      ...['0', '200', '201', '999'].map((value): [string, string, string, string] => ['getSessions', '/sessions', 'limit', value]),
      ...['0', '100', '101', '007'].map((value): [string, string, string, string] => ['getSearch', '/search?q=agree', 'limit', value]),
      ...['0', '10000', '10001'].map((value): [string, string, string, string] => ['getAuditVerify', '/audit/verify', 'maxBreaks', value]),
      ...['\u{1F600}'.repeat(251), '\u{1F600}'.repeat(500), '\u{1F600}'.repeat(501), 'x'.repeat(501)].map((value): [string, string, string, string] => ['getSearch', '/search?limit=1', 'q', value]),
    ];
    for (const [operationId, path, parameter, value] of queries) {
      const { op } = operations.get(operationId)!;
      const schema = (op.parameters as Json[]).find((entry) => entry.in === 'query' && entry.name === parameter)!.schema;
      const documented = validator(schema).safeParse(value).success;
      const response = await rawRequest(service.url, { path: `${path}${path.includes('?') ? '&' : '?'}${parameter}=${encodeURIComponent(value)}` });
      const taken = response.status !== 400;
      if (documented !== taken) disagreements.push({ operationId, parameter, value, documented, status: response.status });
    }
    // And path segments: each parameter's published schema against the server's answer.
    const segments: Array<[operationId: string, method: string, path: (value: string) => string, parameter: string, value: string]> = [
      ['getSessionsId', 'GET', (id) => `/sessions/${id}`, 'id', 'no-such-session'],
      ['postSessionsIdTurnsTurnEnd', 'POST', (turn) => `/sessions/agree-1/turns/${turn}/end`, 'turn', 'bad turn'],
      ['postSessionsIdTurnsTurnEnd', 'POST', (turn) => `/sessions/agree-1/turns/${turn}/end`, 'turn', 'no-such-turn'],
      ['patchSessionsIdMessagesMessage', 'PATCH', (message) => `/sessions/agree-1/messages/${message}`, 'message', 'bad/message'],
      ['getAuditProofStreamRevision', 'GET', (revision) => `/audit/proof/contract-raw/${revision}`, 'revision', '9223372036854775808'],
      ['getAuditProofStreamRevision', 'GET', (revision) => `/audit/proof/contract-raw/${revision}`, 'revision', '9223372036854775807'],
      ['getAuditProofStreamRevision', 'GET', (revision) => `/audit/proof/contract-raw/${revision}`, 'revision', '-1'],
      ['getAuditLeavesIndexProof', 'GET', (index) => `/audit/leaves/${index}/proof`, 'index', '99999999999999999999'],
      ['getMemoryProvidersName', 'GET', (name) => `/memory/providers/${name}`, 'name', 'bad name'],
      ['getMemoryProvidersName', 'GET', (name) => `/memory/providers/${name}`, 'name', 'no-such-provider'],
      ['getStreamsStream', 'GET', (stream) => `/streams/${stream}`, 'stream', '\u200bz'],
    ];
    for (const [operationId, method, path, parameter, value] of segments) {
      const { op } = operations.get(operationId)!;
      const schema = (op.parameters as Json[]).find((entry) => entry.in === 'path' && entry.name === parameter)!.schema;
      const documented = validator(schema).safeParse(value).success;
      const body = method === 'GET' ? undefined : JSON.stringify(method === 'PATCH' ? { content: 'x' } : {});
      const response = await rawRequest(service.url, { method, path: path(encodeURIComponent(value)), headers: body ? { 'content-type': 'application/json' } : {}, body });
      const taken = response.status !== 400;
      if (documented !== taken) disagreements.push({ operationId, parameter, value, documented, status: response.status, detail: response.json().detail });
    }
    expect(disagreements).toEqual([]);
  });

  it('documents every error as an RFC 9457 problem and every route with an error response', () => {
    const problem = doc.components.schemas.Problem;
    expect(problem.required).toEqual(expect.arrayContaining(['type', 'title', 'status', 'detail']));
    for (const { op } of operations.values()) {
      expect({ operation: op.operationId, problem: op.responses.default?.content?.['application/problem+json']?.schema }).toEqual({
        operation: op.operationId,
        problem: { $ref: '#/components/schemas/Problem' },
      });
    }
    expect(doc.openapi).toBe('3.1.0');
  });
});
