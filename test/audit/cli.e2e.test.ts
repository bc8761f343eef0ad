import Database from 'better-sqlite3';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { runCli, tempDir } from '../support/cli.js';
import { buildConversation, writerOn } from '../retention/helpers.js';

const seeded = () => {
  const dir = tempDir('audit13-');
  const env = { SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` };
  for (const n of [0, 1, 2]) {
    for (const stream of ['chat', 'notes']) expect(runCli(['events', 'append', stream, '--type', 'said', '--data', JSON.stringify({ n })], { env }).code).toBe(0);
  }
  return { dir, env, file: join(dir, 'ledger.sqlite') };
};

const edit = (file: string, sql: string) => {
  const db = new Database(file);
  db.exec(sql);
  db.close();
};

describe('audit digest | verify | prove (CLI)', { timeout: 120_000 }, () => {
  it('digest, sign, and verify against it: the right key passes, another key and an edited digest do not', () => {
    const { dir, env } = seeded();
    const keys = generateKeyPairSync('ed25519');
    writeFileSync(join(dir, 'key.pem'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(dir, 'pub.pem'), keys.publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(dir, 'other.pem'), generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
    const digest = runCli(['audit', 'digest', '--json', '--sign', join(dir, 'key.pem')], { env });
    expect(digest.code).toBe(0);
    expect(digest.json()).toMatchObject({ size: 6, root: expect.stringMatching(/^[0-9a-f]{64}$/), at: expect.any(String), signature: { algorithm: 'ed25519' } });
    writeFileSync(join(dir, 'digest.json'), digest.stdout);
    runCli(['events', 'append', 'chat', '--type', 'said', '--data', '{"n":3}'], { env });
    const good = runCli(['audit', 'verify', '--digest', join(dir, 'digest.json'), '--public-key', join(dir, 'pub.pem'), '--json'], { env });
    expect(good.code).toBe(0);
    expect(good.json()).toMatchObject({ ok: true, size: 7, breaks: [] });
    const wrongKey = runCli(['audit', 'verify', '--digest', join(dir, 'digest.json'), '--public-key', join(dir, 'other.pem')], { env });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('not signed by the given public key');
    writeFileSync(join(dir, 'edited.json'), JSON.stringify({ ...digest.json(), root: 'f'.repeat(64) }));
    const edited = runCli(['audit', 'verify', '--digest', join(dir, 'edited.json'), '--public-key', join(dir, 'pub.pem')], { env });
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('does not extend the saved digest of size 6');
    expect(runCli(['audit', 'verify', '--digest', join(dir, 'pub.pem')], { env })).toMatchObject({ code: 2 });
    expect(runCli(['audit', 'verify', '--public-key', join(dir, 'pub.pem')], { env })).toMatchObject({ code: 2 });
    expect(runCli(['audit', 'verify', '--stream', 'chat', '--digest', join(dir, 'digest.json')], { env })).toMatchObject({ code: 2 });
    expect(runCli(['audit', 'digest', '--sign', join(dir, 'pub.pem')], { env })).toMatchObject({ code: 2 });
  });

  it('a digest or key file larger than 64 KiB is refused with one line (exit 2), /dev/zero included, without reading it whole (outside test, session 25)', () => {
    const { dir, env } = seeded();
    writeFileSync(join(dir, 'big.json'), ' '.repeat(200 * 1024) + '{}');
    for (const args of [['--digest', '/dev/zero'], ['--digest', join(dir, 'big.json')]]) {
      const result = runCli(['audit', 'verify', ...args], { env });
      // before: /dev/zero grew the process to 14 GB
      expect([result.code, result.stderr]).toEqual([2, `session-ledger: --digest ${args[1]} is larger than 64 KiB: not a digest file\n`]);
    }
    expect(runCli(['audit', 'digest', '--sign', '/dev/zero'], { env }).stderr).toBe('session-ledger: --sign /dev/zero is larger than 64 KiB: not a key file\n');
  });

  it('verify lists every break with position and stream@revision; invalid stored JSON is a break (exit 1), never an internal error', () => {
    const { env, file } = seeded();
    edit(file, `UPDATE events SET data = '{"n":' || char(1) || '}' WHERE stream = 'chat' AND revision = 1;
      DELETE FROM events WHERE stream = 'notes' AND revision = 2;`);
    const verify = runCli(['audit', 'verify'], { env });
    expect(verify.code).toBe(1);
    const lines = verify.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^session-ledger: json at position 3: chat@1: stored JSON does not parse/);
    expect(lines[1]).toMatch(/^session-ledger: missing at position 6: notes@2: /);
    expect(lines[2]).toBe('session-ledger: 2 breaks in the log');
    const json = runCli(['audit', 'verify', '--json', '--max-breaks', '1'], { env });
    expect(json.code).toBe(1);
    expect(json.json()).toMatchObject({ ok: false, breakCount: 2, breaks: [{ kind: 'json', stream: 'chat', revision: 1, position: 3 }] });
  });

  it('prove prints an inclusion proof; a leaf the log lacks is not found (exit 3); bad revision exit 2', () => {
    const { env } = seeded();
    const proof = runCli(['audit', 'prove', 'notes', '1', '--json'], { env });
    expect(proof.code).toBe(0);
    expect(proof.json()).toMatchObject({ stream: 'notes', revision: 1, index: 3, size: 6, path: expect.any(Array) });
    expect(runCli(['audit', 'prove', 'notes', '9'], { env }).code).toBe(3);
    expect(runCli(['audit', 'prove', 'notes', 'x'], { env }).code).toBe(2);
    const huge = runCli(['audit', 'prove', 'notes', '99999999999999999999999'], { env });
    expect([huge.code, huge.stderr]).toEqual([2, 'session-ledger: the revision argument must be a whole number below 2^63: 99999999999999999999999\n']);
    const size = runCli(['audit', 'prove', 'notes', '1', '--size', '9223372036854775808'], { env });
    expect([size.code, size.stderr]).toEqual([2, 'session-ledger: --size must be below 2^53: 9223372036854775808\n']);
  });

  it('prove refuses an event edited behind the store, and one whose chain hash was edited (exit 1), and still proves the others (outside test, session 24)', () => {
    const { env, file } = seeded();
    edit(file, `UPDATE events SET data = '{"n":7}' WHERE stream = 'chat' AND revision = 1;
      UPDATE events SET metadata = json_set(metadata, '$.hash', '${'0'.repeat(64)}') WHERE stream = 'notes' AND revision = 1;`);
    // before, exit 0 with a proof the offline check accepted for the edited content
    const content = runCli(['audit', 'prove', 'chat', '1'], { env });
    expect([content.code, content.stderr]).toEqual([1, 'session-ledger: The log is damaged: its leaf 2 holds an event (chat@1) whose content does not hash to the chain hash it carries; audit verify names every break\n']);
    const hash = runCli(['audit', 'prove', 'notes', '1', '--json'], { env });
    expect(hash.code).toBe(1);
    expect(hash.json()).toMatchObject({ error: { type: 'log_damaged', details: { leaf: 3 } } });
    expect(runCli(['audit', 'prove', 'chat', '2'], { env }).code).toBe(0);
    expect(runCli(['audit', 'prove', '--leaf', '2'], { env }).code).toBe(1);
  });

  it('a leaf deleted from the log: digest and prove refuse with one line (exit 1), verify names the gap (exit 1)', () => {
    const { env, file } = seeded();
    edit(file, 'DELETE FROM log_leaves WHERE leaf_index = 4');
    const digest = runCli(['audit', 'digest'], { env });
    expect([digest.code, digest.stderr]).toEqual([1, 'session-ledger: The log is damaged: its leaf 4 is gone or holds no hash, so it has no root or proof over it; audit verify names every break\n']);
    expect(runCli(['audit', 'prove', 'notes', '0'], { env }).code).toBe(1);
    const verify = runCli(['audit', 'verify', '--json'], { env });
    expect(verify.code).toBe(1);
    expect(verify.json().breaks).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'root', leaf: 4 })]));
  });

  it('verify after a retention deletion says the events were erased by a recorded deletion and exits 0', async () => {
    const dir = tempDir('audit13-retention-');
    const file = join(dir, 'ledger.sqlite');
    const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
    const store = openSqliteStore(file);
    await buildConversation(writerOn(store, new Date(Date.now() - 40 * 86_400_000).toISOString()).context);
    await store.close();
    expect(runCli(['sessions', 'delete', 'root', '--yes'], { env }).code).toBe(0);
    const verify = runCli(['audit', 'verify'], { env });
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/ok: log of \d+ leaves verified \(\d+ events, \d+ erased by a recorded deletion\)/);
    const json = runCli(['audit', 'verify', '--json'], { env }).json();
    expect(json.erased).toBeGreaterThan(0);
  });

  it("verify --indexes: the store's own indexes too; a watermark past the log exits 1 naming it, while the log alone verifies", () => {
    const { env, file } = seeded();
    const clean = runCli(['audit', 'verify', '--indexes'], { env });
    expect(clean).toMatchObject({ code: 0 });
    expect(clean.stdout).toContain("the store's indexes agree with its events");
    edit(file, `UPDATE ledger_meta SET value = '999' WHERE key = 'ids.indexed_through'`);
    const broken = runCli(['audit', 'verify', '--indexes', '--json'], { env });
    expect(broken.code).toBe(1);
    // The watermark, then the six events it claims are indexed.
    const report = broken.json() as { breaks: unknown[] };
    expect(report).toMatchObject({ ok: false, indexesChecked: true, breakCount: 7 });
    expect(report.breaks.slice(0, 2)).toMatchObject([{ kind: 'index', stream: null }, { kind: 'index', stream: 'chat', revision: 0 }]);
    expect(broken.stderr).toContain("session-ledger: index: the log: ledger_meta 'ids.indexed_through' is 999, past the highest position given (6)");
    expect(broken.stderr).toContain("session-ledger: 7 breaks in the log and the store's indexes");
    expect(runCli(['audit', 'verify'], { env })).toMatchObject({ code: 0 });
    expect(runCli(['audit', 'verify', '--indexes', '--stream', 'chat'], { env })).toMatchObject({ code: 2 });
  });
});
