import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger, newId } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { runCli, tempDir } from '../support/cli.js';

const SCRIPT = resolve(__dirname, 'check_proof.py');
const DOC = resolve(__dirname, '../../docs/audit.md');

const python = (proof: string, digest: string) => spawnSync('python3', [SCRIPT, proof, digest], { encoding: 'utf8' });

describe('the Python proof check of docs/audit.md', { timeout: 120_000 }, () => {
  it('is byte-identical in the docs and in the runnable copy', () => {
    const block = /```python\n([\s\S]*?)```/.exec(readFileSync(DOC, 'utf8'));
    expect(block?.[1]).toBe(readFileSync(SCRIPT, 'utf8'));
  });

  it('checks a real ledger\'s proofs against its digest without Node, and refuses altered ones', async () => {
    const dir = tempDir('audit13-python-');
    const file = join(dir, 'ledger.sqlite');
    const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
    const store = openSqliteStore(file);
    const ledger = createLedger(store);
    for (let n = 0; n < 7; n += 1) {
      await ledger.append(n % 2 ? 'café "quoted" ✓' : 'plain', [{ id: newId(), type: 'said', data: { n } }]);
    }
    await store.tombstoneStream('plain');
    await store.close();
    const digest = runCli(['audit', 'digest', '--json'], { env });
    writeFileSync(join(dir, 'digest.json'), digest.stdout);
    for (const [stream, revision] of [['café "quoted" ✓', '1'], ['plain', '2']] as const) {
      const proof = runCli(['audit', 'prove', stream, revision, '--json'], { env });
      expect(proof.code).toBe(0);
      writeFileSync(join(dir, 'proof.json'), proof.stdout);
      const checked = python(join(dir, 'proof.json'), join(dir, 'digest.json'));
      expect({ status: checked.status, out: checked.stdout, err: checked.stderr }).toMatchObject({ status: 0, out: expect.stringMatching(/^ok: /) });
    }
    // An erased event's proof names the deletion that erased it; the check says what that proves, and no more.
    const erased = runCli(['audit', 'prove', 'plain', '2', '--json'], { env }).json();
    expect(erased).toMatchObject({ leafInput: null, erasedBy: { index: 7, leafInput: expect.stringContaining('"deletion":"tombstone"'), path: expect.any(Array) } });
    const checkErased = (proof: unknown) => {
      writeFileSync(join(dir, 'erased.json'), JSON.stringify(proof));
      return python(join(dir, 'erased.json'), join(dir, 'digest.json'));
    };
    expect(checkErased(erased)).toMatchObject({
      status: 0,
      stdout: 'ok: leaf 4 is in the log of 8 leaves, root ' + digest.json().root + '; its event is erased, by the tombstone deletion at leaf 7 of plain revisions 0..3 (proven in this tree); which of them the leaf held is not provable once erased\n',
    });
    // before: a real proof with leafInput null and any stream@revision written in printed "ok: STREAM@REV is leaf i"
    const { erasedBy: _dropped, ...withoutDeletion } = erased as Record<string, unknown>;
    expect(checkErased({ ...withoutDeletion, stream: 'session-anything', revision: 42 })).toMatchObject({ status: 1, stdout: expect.stringContaining('names no deletion') });
    expect(checkErased({ ...erased, stream: 'session-anything' })).toMatchObject({ status: 1, stdout: expect.stringContaining('does not erase') });
    expect(checkErased({ ...erased, revision: 9 })).toMatchObject({ status: 1, stdout: expect.stringContaining('does not erase') });
    const delPath = (erased as { erasedBy: { path: string[] } }).erasedBy.path;
    expect(checkErased({ ...erased, erasedBy: { ...(erased as { erasedBy: object }).erasedBy, path: [...delPath].reverse() } })).toMatchObject({ status: 1, stdout: expect.stringContaining("deletion's audit path") });
    const forgedDeletion = JSON.parse(JSON.parse(JSON.stringify(erased)).erasedBy.leafInput);
    // A deletion leaf inside the digest's tree comes with its path: before, one without was "ok", so any
    // leaf of the tree could be called a deletion of a live event (outside test, session 34, helper-95 F1).
    expect(checkErased({ ...erased, erasedBy: { index: 7, path: null, leafInput: JSON.stringify({ ...forgedDeletion, head: '99' }) } })).toMatchObject({
      status: 1,
      stdout: expect.stringContaining('in this tree and the proof gives no audit path'),
    });
    // One past the tree (committed after the digest) cannot be proven in it: the message says to prove that leaf against a later digest.
    const later = checkErased({ ...erased, erasedBy: { index: 8, path: null, leafInput: JSON.stringify({ ...forgedDeletion, index: '8' }) } });
    expect([later.status, later.stdout]).toEqual([0, expect.stringContaining('prove it against a later digest: audit prove --leaf 8')]);
    // The tombstone's own leaf (index 7), as a retention.deleted record names it: proven by index.
    const deletion = runCli(['audit', 'prove', '--leaf', '7', '--json'], { env });
    expect(deletion.json()).toMatchObject({ stream: 'plain', revision: 3, index: 7, leafInput: expect.stringContaining('"deletion":"tombstone"') });
    writeFileSync(join(dir, 'deletion.json'), deletion.stdout);
    expect(python(join(dir, 'deletion.json'), join(dir, 'digest.json'))).toMatchObject({ status: 0, stdout: expect.stringMatching(/^ok: plain@3 is leaf 7/) });
    writeFileSync(join(dir, 'deletion.json'), JSON.stringify({ ...deletion.json(), revision: 2 }));
    expect(python(join(dir, 'deletion.json'), join(dir, 'digest.json'))).toMatchObject({ status: 1, stdout: expect.stringContaining('another event') });
    expect(runCli(['audit', 'prove', '--leaf', '8'], { env }).code).toBe(3);
    expect(runCli(['audit', 'prove', 'plain', '--leaf', '7'], { env }).code).toBe(2);
    const proof = runCli(['audit', 'prove', 'café "quoted" ✓', '2', '--json'], { env }).json();
    const altered = (change: Record<string, unknown>) => {
      writeFileSync(join(dir, 'altered.json'), JSON.stringify({ ...proof, ...change }));
      return python(join(dir, 'altered.json'), join(dir, 'digest.json'));
    };
    expect(altered({})).toMatchObject({ status: 0 });
    expect(altered({ path: [...proof.path.slice(1), proof.path[0]] })).toMatchObject({ status: 1, stdout: expect.stringContaining('does not lead') });
    expect(altered({ leafInput: proof.leafInput.replace('"revision":"2"', '"revision":"3"') })).toMatchObject({ status: 1, stdout: expect.stringContaining('another event') });
    expect(altered({ leafInput: proof.leafInput.replace('"created":"', '"created":"1') })).toMatchObject({ status: 1, stdout: expect.stringContaining('does not hash') });
    expect(altered({ size: proof.size - 1 })).toMatchObject({ status: 1 });
    // The leaf commits to the event's position (schema version 7): a proof claiming another position is refused.
    expect(JSON.parse(proof.leafInput)).toMatchObject({ position: String(proof.position) });
    expect(altered({ position: proof.position + 1 })).toMatchObject({ status: 1, stdout: expect.stringContaining('another event') });
  });

  it('prints a stream name with control or bidi characters escaped, as the CLI does (outside test, session 34, helper-95 F5)', async () => {
    const dir = tempDir('audit13-python-');
    const file = join(dir, 'ledger.sqlite');
    const env = { SESSION_LEDGER_STORE: `sqlite:${file}` };
    const store = openSqliteStore(file);
    await createLedger(store).append('txt.exe\u202egnp', [{ id: newId(), type: 'said', data: {} }]);
    await store.close();
    writeFileSync(join(dir, 'digest.json'), runCli(['audit', 'digest', '--json'], { env }).stdout);
    writeFileSync(join(dir, 'proof.json'), runCli(['audit', 'prove', 'txt.exe\u202egnp', '0', '--json'], { env }).stdout);
    const checked = python(join(dir, 'proof.json'), join(dir, 'digest.json'));
    expect([checked.status, checked.stdout]).toEqual([0, expect.stringMatching(/^ok: txt\.exe\\u202egnp@0 is leaf 0/)]);
  });
});
