import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { leafHash, verifyInclusion } from '@session-ledger/core';
import { tempDir } from '../support/cli.js';
import { bodyOf, errorOf, startServer } from '../support/http.js';

const hash = z.string().regex(/^[0-9a-f]{64}$/);
const digestBody = z.object({ size: z.number(), root: hash, at: z.string() });
const proofBody = z.object({ index: z.number(), size: z.number(), leafHash: hash, leafInput: z.string().nullable(), root: hash, path: z.array(hash) });
const reportBody = z.object({ ok: z.boolean(), size: z.number(), breakCount: z.number(), breaks: z.array(z.object({ kind: z.string(), stream: z.string().nullable(), revision: z.number().nullable(), message: z.string() })) });

describe('GET /audit/digest, /audit/proof/:stream/:revision, /audit/verify?digest=', { timeout: 120_000 }, () => {
  const dir = tempDir('audit13-http-');
  const file = join(dir, 'ledger.sqlite');
  let service: Awaited<ReturnType<typeof startServer>>;
  const get = (path: string) => fetch(`${service.url}${path}`);
  beforeAll(async () => {
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${file}` });
    for (const n of [0, 1, 2, 3, 4]) {
      const response = await fetch(`${service.url}/streams/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'said', data: { n } }) });
      expect(response.status).toBe(201);
    }
  });
  afterAll(async () => service?.stop());

  it('a proof from the server verifies against its digest', async () => {
    const digest = await bodyOf(await get('/audit/digest'), digestBody);
    expect(digest.size).toBe(5);
    const proof = await bodyOf(await get('/audit/proof/chat/3'), proofBody);
    expect(proof).toMatchObject({ index: 3, size: 5, root: digest.root });
    const leaf = Buffer.from(proof.leafHash, 'hex');
    expect(leafHash(proof.leafInput!).equals(leaf)).toBe(true);
    expect(verifyInclusion(proof.index, proof.size, leaf, proof.path.map((item) => Buffer.from(item, 'hex')), Buffer.from(digest.root, 'hex'))).toBe(true);
  });

  it('verify extends a saved digest (200), names a tampered event (409), and refuses a digest that is none (400)', async () => {
    const digest = await (await get('/audit/digest')).text();
    const ok = await get(`/audit/verify?digest=${encodeURIComponent(digest)}`);
    expect(ok.status).toBe(200);
    expect(await bodyOf(ok, reportBody)).toMatchObject({ ok: true, size: 5, breakCount: 0 });
    expect((await get(`/audit/verify?digest=${encodeURIComponent('{"size":1}')}`)).status).toBe(400);
    expect((await get(`/audit/verify?digest=nope`)).status).toBe(400);
    expect((await get(`/audit/verify?digest=${encodeURIComponent(JSON.stringify({ ...JSON.parse(digest), at: 'yesterday' }))}`)).status).toBe(400);
    expect((await get(`/audit/verify?stream=chat&digest=${encodeURIComponent(digest)}`)).status).toBe(400);
    const db = new Database(file);
    db.prepare(`UPDATE events SET created = 'yesterday' WHERE stream = 'chat' AND revision = 2`).run();
    db.close();
    const broken = await get(`/audit/verify?digest=${encodeURIComponent(digest)}&maxBreaks=5`);
    expect(broken.status).toBe(409);
    expect((await bodyOf(broken, reportBody)).breaks).toEqual([expect.objectContaining({ kind: 'leaf', stream: 'chat', revision: 2 })]);
  });

  it('a proof of a revision that is not a number is 400; of a leaf the log lacks, 404', async () => {
    const bad = await get('/audit/proof/chat/x');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).type).toBe('invalid_input');
    const missing = await get('/audit/proof/chat/99');
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).type).toBe('not_found');
  });

  it('GET /audit/leaves/:index/proof proves any leaf by its index, the same proof as by stream and revision; 400 and 404 otherwise', async () => {
    const byEvent = await bodyOf(await get('/audit/proof/chat/3'), proofBody);
    const byLeaf = await bodyOf(await get('/audit/leaves/3/proof?size=4'), proofBody);
    expect(byLeaf).toMatchObject({ index: 3, size: 4, leafHash: byEvent.leafHash, leafInput: byEvent.leafInput });
    expect((await get('/audit/leaves/x/proof')).status).toBe(400);
    const missing = await get('/audit/leaves/99/proof');
    expect([missing.status, (await errorOf(missing)).type]).toEqual([404, 'not_found']);
    // A whole number below 2^63 is an index, however large: the log has no such leaf (404) ...
    for (const index of ['1000000000000000', '9007199254740993', '9223372036854775807']) {
      const huge = await get(`/audit/leaves/${index}/proof`);
      expect([index, huge.status, (await errorOf(huge)).type]).toEqual([index, 404, 'not_found']);
    }
    // ... and from 2^63 on it is 400, the number rule of every route (outside test, session 21).
    for (const index of ['9223372036854775808', '1'.repeat(40)]) {
      const huge = await get(`/audit/leaves/${index}/proof`);
      expect([index, huge.status, (await errorOf(huge)).type]).toEqual([index, 400, 'invalid_input']);
    }
  });

  it("verify?indexes=true also checks the store's own indexes: a watermark past the log is a 409 naming it; a bad value or beside stream is 400", async () => {
    const clean = await bodyOf(await get('/audit/verify?indexes=true'), z.looseObject({ indexesChecked: z.boolean(), breaks: z.array(z.looseObject({ kind: z.string() })) }));
    expect(clean.indexesChecked).toBe(true);
    expect(clean.breaks.filter((item) => item.kind === 'index')).toEqual([]);
    const db = new Database(file);
    db.prepare(`UPDATE ledger_meta SET value = '999' WHERE key = 'ids.indexed_through'`).run();
    db.close();
    const broken = await get('/audit/verify?indexes=true');
    expect(broken.status).toBe(409);
    expect((await bodyOf(broken, reportBody)).breaks).toContainEqual(expect.objectContaining({ kind: 'index', message: expect.stringContaining("'ids.indexed_through' is 999, past the highest position given") }));
    expect((await get('/audit/verify')).status).toBe(409); // the leaf edited above; the index is not looked at without the option
    expect((await bodyOf(await get('/audit/verify'), reportBody)).breaks.some((item) => item.kind === 'index')).toBe(false);
    expect((await get('/audit/verify?indexes=yes')).status).toBe(400);
    expect((await get('/audit/verify?stream=chat&indexes=true')).status).toBe(400);
  });
});
