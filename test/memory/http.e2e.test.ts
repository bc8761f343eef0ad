import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { z } from 'zod';
import { bodyOf, errorBody, errorOf, startServer } from '../support/http.js';

describe('HTTP service: memory', { timeout: 60_000 }, () => {
  const dir = tempDir();
  const mirror = join(dir, 'mirror');
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}`, SESSION_LEDGER_USER_BUDGET: '60' };
  let service: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    service = await startServer(env, ['--mirror', mirror]);
  });
  afterAll(async () => service?.stop());

  const post = (path: string, body: unknown) =>
    fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const get = async (path: string) => (await fetch(`${service.url}${path}`)).json();
  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 2000 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('adds, replaces, removes and applies batches with the CLI JSON shapes; the mirror follows', async () => {
    const added = await post('/memory/add', { target: 'memory', content: 'Project uses pnpm', causation: { sessionId: 's-1', turnId: 't-1' } });
    expect(added.status).toBe(200);
    const { receipts, revision } = await bodyOf(added, z.object({ revision: z.number(), receipts: z.array(z.object({ entryId: z.string() })) }));
    expect(revision).toBe(0);
    const batch = await post('/memory/apply', [
      { op: 'add', target: 'memory', content: 'Uses the blue notebook' },
      { op: 'replace', target: 'memory', old: 'blue notebook', content: 'Uses the green notebook' },
      { op: 'replace', target: 'memory', old: 'pnpm', content: 'Project uses npm' },
    ]);
    expect((await bodyOf(batch, z.object({ receipts: z.array(z.object({ previousContent: z.string().nullable() })) }))).receipts.map((r) => r.previousContent)).toEqual([
      null,
      'Uses the blue notebook',
      'Project uses pnpm',
    ]);
    const removed = await (await post('/memory/remove', { target: 'memory', old: 'green' })).json();
    expect(removed).toMatchObject({ revision: 4, receipts: [{ op: 'remove', previousContent: 'Uses the green notebook' }] });
    await post('/memory/add', { profile: 'work', target: 'user', content: 'Works at ACME' });
    expect(await get('/memory/entries')).toEqual([{ id: receipts[0]!.entryId, target: 'memory', content: 'Project uses npm' }]);
    expect(await get('/memory/entries?profile=work&target=user')).toEqual([expect.objectContaining({ content: 'Works at ACME' })]);
    const metadata = runCli(['events', 'read', 'memory-default', '--json'], { env }).json()[0].metadata;
    expect(metadata.causation).toEqual({ sessionId: 's-1', turnId: 't-1' });

    const file = join(mirror, 'MEMORY.md');
    await waitFor(() => existsSync(file) && readFileSync(file, 'utf8') === 'Project uses npm');
    expect(readFileSync(file, 'utf8')).toBe('Project uses npm');
    const providers = await get('/memory/providers');
    expect(providers).toEqual([expect.objectContaining({ name: 'markdown-mirror', state: 'active' })]);
    expect(await get('/memory/providers/markdown-mirror')).toMatchObject({ state: 'active', skipped: 0 });
    expect(await (await post('/memory/providers/resume', {})).json()).toEqual({ resumed: [] });
    const rebuilt = await (await post('/memory/mirror/rebuild', {})).json();
    expect(rebuilt).toMatchObject({ dir: mirror, profile: 'default', entries: 1 });
  });

  it('answers selection and batch errors with 4xx JSON and changes nothing', async () => {
    await post('/memory/add', { target: 'user', content: 'Prefers tea' });
    await post('/memory/add', { target: 'user', content: 'Prefers tea with milk' });
    const before = await get('/memory/entries');
    const cases: Array<[string, unknown, number, string]> = [
      ['/memory/remove', { target: 'user', old: 'coffee' }, 404, 'not_found'],
      ['/memory/remove', { target: 'user', old: 'Prefers' }, 409, 'ambiguous'],
      ['/memory/add', { target: 'user', content: 'Prefers tea' }, 409, 'duplicate'],
      ['/memory/add', { target: 'user', content: 'A long entry that does not fit in sixty characters' }, 409, 'over_budget'],
      ['/memory/apply', [{ op: 'add', target: 'user' }], 400, 'invalid_input'],
      ['/memory/apply', { operations: [] }, 400, 'invalid_input'],
      // before: 32,000 operations held the server for 105 s (the resolver grows with the square of a batch)
      ['/memory/apply', { operations: Array.from({ length: 1001 }, (_, i) => ({ op: 'add', target: 'user', content: `e${i}` })) }, 400, 'invalid_input'],
      ['/memory/apply', Array.from({ length: 50_000 }, (_, i) => ({ op: 'add', target: 'user', content: `e${i}` })), 400, 'invalid_input'],
      ['/memory/add', { target: 'notes', content: 'x' }, 400, 'invalid_input'],
      ['/memory/add', { target: 'user', content: 'x', extra: true }, 400, 'invalid_input'],
      ['/memory/add', { target: 'user', content: 'x', profile: '../x' }, 400, 'invalid_input'],
      ['/memory/providers/resume', { name: 'nobody' }, 404, 'not_found'],
    ];
    for (const [path, body, status, type] of cases) {
      const response = await post(path, body);
      const json = await bodyOf(response, errorBody.partial());
      expect({ path, body, status: response.status, type: json.error?.type }).toEqual({ path, body, status, type });
    }
    const ambiguous = await errorOf(await post('/memory/remove', { target: 'user', old: 'Prefers' }));
    expect(ambiguous.details?.candidates).toEqual(['Prefers tea', 'Prefers tea with milk']);
    expect((await fetch(`${service.url}/memory/entries?target=notes`)).status).toBe(400);
    expect((await fetch(`${service.url}/memory/providers/nobody`)).status).toBe(404);
    expect(await get('/memory/entries')).toEqual(before);
  });

  it('refuses a causation id longer than an id (400), which every event of the batch would store (helper-94 F14)', async () => {
    const long = await post('/memory/add', { target: 'memory', content: 'caused at length', causation: { sessionId: 's'.repeat(201) } });
    expect([long.status, (await errorOf(long)).type]).toEqual([400, 'invalid_input']);
    expect((await post('/memory/add', { target: 'memory', content: 'caused', causation: { sessionId: 's'.repeat(200) } })).status).toBe(200);
  });

  it("fences a write with the profile's revision: GET /memory/entries' ETag as expectedRevision, 409 once another writer moved it (helper-94 F4)", async () => {
    const seen = await fetch(`${service.url}/memory/entries?profile=fenced`);
    expect(seen.headers.get('etag')).toBe('"-1"');
    expect((await post('/memory/add', { profile: 'fenced', target: 'memory', content: 'Uses the blue notebook' })).status).toBe(200);
    const read = await fetch(`${service.url}/memory/entries?profile=fenced`);
    const revision = JSON.parse(read.headers.get('etag')!) as string;
    expect(revision).toBe('0');
    expect((await post('/memory/replace', { profile: 'fenced', target: 'memory', old: 'blue notebook', content: 'Uses the blue pad' })).status).toBe(200);
    expect((await post('/memory/add', { profile: 'fenced', target: 'memory', content: 'Bank PIN hint is in the red notebook' })).status).toBe(200);
    const stale = await post('/memory/remove', { profile: 'fenced', target: 'memory', old: 'notebook', expectedRevision: revision });
    expect([stale.status, (await errorOf(stale)).type]).toEqual([409, 'wrong_expected_version']);
    const batch = await post('/memory/apply', { profile: 'fenced', expectedRevision: 0, operations: [{ op: 'remove', target: 'memory', old: 'blue' }] });
    expect([batch.status, (await errorOf(batch)).type]).toEqual([409, 'wrong_expected_version']);
    // Before, the remove took the red notebook's entry, which the caller never saw.
    expect(((await get('/memory/entries?profile=fenced')) as Array<{ content: string }>).map((entry) => entry.content)).toEqual(['Uses the blue pad', 'Bank PIN hint is in the red notebook']);
  });

  it('names an entry by its id, retries a batch under its batchId without writing it again, and keeps a big selector out of its 404 (helper-94 F4, F16)', async () => {
    const profile = 'keyed';
    await post('/memory/apply', { profile, operations: [{ op: 'add', target: 'memory', content: 'Uses the blue notebook' }, { op: 'add', target: 'memory', content: 'Uses the red notebook' }] });
    const [blue] = (await get(`/memory/entries?profile=${profile}`)) as Array<{ id: string; content: string }>;
    const byId = await post('/memory/replace', { profile, target: 'memory', entryId: blue!.id, content: 'Uses the blue pad', batchId: 'turn-3' });
    const first = await bodyOf(byId, z.object({ written: z.boolean(), revision: z.number(), receipts: z.array(z.object({ entryId: z.string(), selector: z.string().nullable() })) }));
    expect([byId.status, first.written, first.receipts[0]]).toEqual([200, true, { entryId: blue!.id, selector: null }]);
    const retried = await post('/memory/replace', { profile, target: 'memory', entryId: blue!.id, content: 'Uses the blue pad', batchId: 'turn-3' });
    expect(await retried.json()).toMatchObject({ written: false, revision: first.revision, receipts: [{ entryId: blue!.id, previousContent: 'Uses the blue notebook' }] });
    const other = await post('/memory/remove', { profile, target: 'memory', old: 'red', batchId: 'turn-3' });
    expect([other.status, (await errorOf(other)).type]).toEqual([409, 'duplicate']);
    for (const body of [
      { target: 'memory', old: 'red', entryId: blue!.id },
      { target: 'memory' },
      { target: 'memory', old: 'red', batchId: 'a\u0007b' },
      { target: 'memory', old: 'red', batchId: 'k'.repeat(201) },
    ]) {
      const refused = await post('/memory/remove', { profile, ...body });
      expect([refused.status, (await errorOf(refused)).type]).toEqual([400, 'invalid_input']);
    }
    const batch = await post('/memory/apply', { profile, operations: [{ op: 'remove', target: 'memory', old: 'red', entryId: blue!.id }] });
    expect(batch.status).toBe(400);
    const gone = await post('/memory/remove', { profile, target: 'user', entryId: blue!.id });
    expect([gone.status, (await errorOf(gone)).type]).toEqual([404, 'not_found']);
    const huge = await post('/memory/remove', { profile, target: 'memory', old: 'q'.repeat(1_000_000) });
    const text = await huge.text();
    expect([huge.status, text.length < 5_000]).toEqual([404, true]);
    expect(((await get(`/memory/entries?profile=${profile}`)) as Array<{ content: string }>).map((entry) => entry.content)).toEqual(['Uses the blue pad', 'Uses the red notebook']);
  });

  it('POST /memory/mirror/adopt keeps a hand edit of the mirrored directory, through the ledger (helper-94 F1)', async () => {
    const file = join(mirror, 'MEMORY.md');
    const entries = async () => ((await get('/memory/entries?target=memory')) as Array<{ content: string }>).map((entry) => entry.content);
    const before = await entries();
    await waitFor(() => existsSync(file) && readFileSync(file, 'utf8') === before.join('\n§\n'));
    writeFileSync(file, `${before.join('\n§\n')}\n§\nAdded by hand`);
    const dry = await post('/memory/mirror/adopt', { dryRun: true });
    expect([dry.status, await dry.json()]).toEqual([200, expect.objectContaining({ operations: [{ op: 'add', target: 'memory', content: 'Added by hand' }], batch: null, rebuilt: null })]);
    expect(await entries()).toEqual(before);
    const adopted = await post('/memory/mirror/adopt', {});
    expect([adopted.status, await adopted.json()]).toEqual([200, expect.objectContaining({ batch: expect.objectContaining({ written: true }), rebuilt: expect.objectContaining({ entries: expect.any(Number) }) })]);
    expect(await entries()).toEqual([...before, 'Added by hand']);
    const bad = await post('/memory/mirror/adopt', { dryRun: 'yes' });
    expect([bad.status, (await errorOf(bad)).type]).toEqual([400, 'invalid_input']);
  });
});
