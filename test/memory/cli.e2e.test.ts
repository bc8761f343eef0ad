import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, startCli, tempDir } from '../support/cli.js';

const storeIn = (dir: string) => ({ SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` });

/** Runs the CLI without blocking, so two processes really overlap. */
const runAsync = (args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });

// Each case runs the built CLI several times; on a busy 2-core machine that takes a while.
describe('session-ledger memory (CLI)', { timeout: 180_000 }, () => {
  it('adds, lists, replaces and removes with the documented JSON shapes', () => {
    const env = storeIn(tempDir());
    const added = runCli(['memory', 'add', '--target', 'user', '--content', 'Name is Ada', '--session', 's-1', '--json'], { env });
    expect(added.code).toBe(0);
    const [receipt] = added.json().receipts;
    expect(added.json()).toMatchObject({ revision: 0 });
    expect(receipt).toEqual({ op: 'add', entryId: expect.any(String), target: 'user', previousContent: null, content: 'Name is Ada', selector: null });
    runCli(['memory', 'add', '--target', 'memory', '--content', 'Project uses pnpm'], { env });
    expect(runCli(['memory', 'list', '--json'], { env }).json()).toEqual([
      { id: receipt.entryId, target: 'user', content: 'Name is Ada' },
      { id: expect.any(String), target: 'memory', content: 'Project uses pnpm' },
    ]);
    const replaced = runCli(['memory', 'replace', '--target', 'user', '--old', 'Ada', '--content', 'Name is Ada Lovelace', '--json'], { env });
    expect(replaced.json().receipts[0]).toMatchObject({ entryId: receipt.entryId, previousContent: 'Name is Ada', selector: 'Ada' });
    expect(runCli(['memory', 'list', '--target', 'user', '--json'], { env }).json()).toEqual([
      { id: receipt.entryId, target: 'user', content: 'Name is Ada Lovelace' },
    ]);
    const removed = runCli(['memory', 'remove', '--target', 'memory', '--old', 'pnpm', '--json'], { env });
    expect(removed.json()).toMatchObject({ revision: 3, receipts: [{ op: 'remove', previousContent: 'Project uses pnpm', content: null }] });
    expect(runCli(['memory', 'list', '--profile', 'other', '--json'], { env }).json()).toEqual([]);
  });

  it('applies a batch file in order and prints revision and receipts', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    const batch = join(dir, 'batch.json');
    writeFileSync(
      batch,
      JSON.stringify([
        { op: 'add', target: 'memory', content: 'Uses the blue notebook' },
        { op: 'replace', target: 'memory', old: 'blue notebook', content: 'Uses the green notebook' },
        { op: 'remove', target: 'memory', old: 'green notebook' },
      ]),
    );
    const result = runCli(['memory', 'apply', '--file', batch, '--json'], { env });
    expect(result.code).toBe(0);
    const json = result.json();
    expect(json.revision).toBe(2);
    expect(json.receipts.map((r: { op: string; previousContent: string | null }) => [r.op, r.previousContent])).toEqual([
      ['add', null],
      ['replace', 'Uses the blue notebook'],
      ['remove', 'Uses the green notebook'],
    ]);
    expect(Object.keys(json.receipts[1]).sort()).toEqual(['content', 'entryId', 'op', 'previousContent', 'selector', 'target']);
    const stdin = runCli(['memory', 'apply', '--file', '-', '--profile', 'p2'], {
      env,
      input: JSON.stringify([{ op: 'add', target: 'user', content: 'From stdin' }]),
    });
    expect(stdin.code).toBe(0);
    expect(runCli(['memory', 'list', '--profile', 'p2', '--json'], { env }).json()).toHaveLength(1);
  });

  it('exits 3 on no match, 1 on ambiguous (listing candidates), duplicate and over budget, 2 on a malformed batch; nothing changes', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    runCli(['memory', 'add', '--target', 'memory', '--content', 'Prefers tea'], { env });
    runCli(['memory', 'add', '--target', 'memory', '--content', 'Prefers tea with milk'], { env });
    const before = runCli(['events', 'all'], { env }).stdout;
    const file = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    };
    const cases: Array<[string[], number]> = [
      [['memory', 'remove', '--target', 'memory', '--old', 'coffee'], 3],
      [['memory', 'replace', '--target', 'memory', '--old', 'Prefers', '--content', 'x'], 1],
      [['memory', 'add', '--target', 'memory', '--content', 'Prefers tea'], 1],
      [['memory', 'add', '--target', 'memory', '--content', 'x'.repeat(2200)], 1],
      [['memory', 'add', '--target', 'user', '--content', 'twelve chars', '--user-budget', '10'], 1],
      [['memory', 'apply', '--file', file('bad.json', '[{"op": "add", "target": "memory"')], 2],
      [['memory', 'apply', '--file', file('op.json', '[{"op": "rename", "target": "memory", "content": "x"}]')], 2],
      [['memory', 'apply', '--file', file('empty.json', '[]')], 2],
      [['memory', 'apply', '--file', file('noold.json', '[{"op": "remove", "target": "memory"}]')], 2],
      [['memory', 'apply', '--file', join(dir, 'missing.json')], 2],
      [['memory', 'add', '--target', 'notes', '--content', 'x'], 2],
      [['memory', 'add', '--target', 'memory'], 2],
      [['memory', 'add', '--target', 'memory', '--content', 'ok', '--profile', '../etc'], 2],
      [['memory', 'providers', 'status', 'nobody'], 3],
      // Outside test, session 23: '' was taken as unset (the default budget), 2^64 as a budget, and -1's error named the environment variable.
      [['memory', 'add', '--target', 'memory', '--content', 'ok', '--memory-budget', ''], 2],
      [['memory', 'add', '--target', 'user', '--content', 'ok', '--user-budget', '18446744073709551616'], 2],
      [['memory', 'add', '--target', 'memory', '--content', 'ok', '--memory-budget', '-1'], 2],
    ];
    for (const [args, code] of cases) {
      const result = runCli(args, { env });
      expect({ args, code: result.code }).toEqual({ args, code });
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    const ambiguous = runCli(['memory', 'remove', '--target', 'memory', '--old', 'Prefers', '--json'], { env });
    expect(ambiguous.stderr).toContain('"Prefers tea", "Prefers tea with milk"');
    expect(ambiguous.json().error).toMatchObject({ type: 'ambiguous', details: { candidates: ['Prefers tea', 'Prefers tea with milk'] } });
    expect(runCli(['events', 'all'], { env }).stdout).toBe(before);
  });

  it('two processes replacing different entries at once both commit with the right identities', async () => {
    const env = storeIn(tempDir());
    const setup = runCli(['memory', 'apply', '--file', '-', '--json'], {
      env,
      input: JSON.stringify(
        Array.from({ length: 4 }, (_, i) => ({ op: 'add', target: 'memory', content: `Fact number ${i} is old` })),
      ),
    }).json();
    const ids: string[] = setup.receipts.map((r: { entryId: string }) => r.entryId);
    const results = await Promise.all(
      ids.map((_, i) =>
        runAsync(['memory', 'replace', '--target', 'memory', '--old', `number ${i} is`, '--content', `Fact number ${i} is new`, '--json'], env),
      ),
    );
    results.forEach((result, i) => {
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).receipts[0]).toMatchObject({ entryId: ids[i], previousContent: `Fact number ${i} is old` });
    });
    expect(new Set(results.map((result) => JSON.parse(result.stdout).revision)).size).toBe(4);
    expect(runCli(['memory', 'list', '--json'], { env }).json()).toEqual(
      ids.map((id, i) => ({ id, target: 'memory', content: `Fact number ${i} is new` })),
    );
    expect(runCli(['audit', 'verify'], { env }).code).toBe(0);
  });

  it('mirrors to Markdown, parks a failing mirror with a visible status, resumes it, and rebuilds', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    const mirror = join(dir, 'mirror');
    runCli(['memory', 'add', '--target', 'memory', '--content', 'First note'], { env });
    runCli(['memory', 'add', '--target', 'user', '--content', 'Name is Ada'], { env });
    runCli(['memory', 'add', '--target', 'memory', '--content', 'Second note'], { env });
    const run = runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once', '--json'], { env });
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ name: 'markdown-mirror', state: 'active' });
    expect(readFileSync(join(mirror, 'MEMORY.md'), 'utf8')).toBe('First note\n§\nSecond note');
    expect(readFileSync(join(mirror, 'USER.md'), 'utf8')).toBe('Name is Ada');

    // Break the mirror: USER.md becomes a directory, so the atomic rename fails.
    rmSync(join(mirror, 'USER.md'));
    mkdirSync(join(mirror, 'USER.md'));
    runCli(['memory', 'replace', '--target', 'user', '--old', 'Ada', '--content', 'Name is Grace'], { env });
    runCli(['memory', 'add', '--target', 'memory', '--content', 'Third note'], { env });
    const failing = runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once', '--attempts', '2'], { env });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/parked after 2 attempts/);
    const status = runCli(['memory', 'providers', 'status', '--json'], { env }).json();
    expect(status).toEqual([expect.objectContaining({ name: 'markdown-mirror', state: 'parked', failed: expect.objectContaining({ revision: 3 }) })]);
    expect(runCli(['memory', 'providers', 'status'], { env }).stdout).toMatch(/markdown-mirror\tparked: .+ at memory-default@3/);
    // Parked: a new run delivers nothing until it is resumed; writers are not blocked.
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'Fourth note'], { env }).code).toBe(0);
    expect(runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once'], { env }).code).toBe(1);
    expect(readFileSync(join(mirror, 'MEMORY.md'), 'utf8')).toBe('First note\n§\nSecond note');

    rmSync(join(mirror, 'USER.md'), { recursive: true });
    expect(runCli(['memory', 'providers', 'resume', 'markdown-mirror', '--json'], { env }).json()).toEqual({ resumed: ['markdown-mirror'] });
    expect(runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once'], { env }).code).toBe(0);
    expect(readFileSync(join(mirror, 'USER.md'), 'utf8')).toBe('Name is Grace');
    expect(readFileSync(join(mirror, 'MEMORY.md'), 'utf8')).toBe('First note\n§\nSecond note\n§\nThird note\n§\nFourth note');

    const rebuilt = join(dir, 'rebuilt');
    expect(runCli(['memory', 'mirror', 'rebuild', '--dir', rebuilt, '--json'], { env }).json()).toMatchObject({ entries: 5 });
    expect(readFileSync(join(rebuilt, 'MEMORY.md'), 'utf8')).toBe(readFileSync(join(mirror, 'MEMORY.md'), 'utf8'));
  });

  it("providers run --once over Hermes' own files exits 1 with the mirror parked and why; rebuild and resume, and it follows", () => {
    const dir = tempDir();
    const env = storeIn(dir);
    const mirror = join(dir, 'hermes-memories');
    mkdirSync(mirror);
    writeFileSync(join(mirror, 'MEMORY.md'), 'hermes entry');
    runCli(['memory', 'add', '--target', 'memory', '--content', 'Ledger note'], { env });
    const run = runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once', '--json'], { env });
    expect(run.code).toBe(1);
    expect(run.json()).toMatchObject({ name: 'markdown-mirror', state: 'parked', reason: expect.stringMatching(/could not prepare: .*memory mirror adopt --dir .*memory mirror rebuild --dir/) });
    expect(run.json().failed).toBeUndefined();
    expect(runCli(['memory', 'providers', 'status'], { env }).stdout).toMatch(/markdown-mirror\tparked: could not prepare: /);
    expect(readFileSync(join(mirror, 'MEMORY.md'), 'utf8')).toBe('hermes entry');
    expect(runCli(['memory', 'mirror', 'rebuild', '--dir', mirror], { env }).code).toBe(0);
    expect(runCli(['memory', 'providers', 'resume', 'markdown-mirror'], { env }).code).toBe(0);
    runCli(['memory', 'add', '--target', 'user', '--content', 'Name is Ada'], { env });
    expect(runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once'], { env }).code).toBe(0);
    expect([readFileSync(join(mirror, 'MEMORY.md'), 'utf8'), readFileSync(join(mirror, 'USER.md'), 'utf8')]).toEqual(['Ledger note', 'Name is Ada']);
  });

  it('a fan-out killed with SIGKILL resumes after restart with nothing lost', async () => {
    const dir = tempDir();
    const env = storeIn(dir);
    const mirror = join(dir, 'mirror');
    runCli(['memory', 'add', '--target', 'memory', '--content', 'Before start'], { env });
    const runner = startCli(['memory', 'providers', 'run', '--mirror', mirror], env);
    const memoryFile = join(mirror, 'MEMORY.md');
    const waitFile = async (text: string) => {
      for (let i = 0; i < 2000 && !(existsSync(memoryFile) && readFileSync(memoryFile, 'utf8') === text); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(readFileSync(memoryFile, 'utf8')).toBe(text);
    };
    await waitFile('Before start');
    runCli(['memory', 'add', '--target', 'memory', '--content', 'While running'], { env });
    await waitFile('Before start\n§\nWhile running');
    runner.child.kill('SIGKILL');
    await new Promise((resolve) => runner.child.once('exit', resolve));
    runCli(['memory', 'add', '--target', 'memory', '--content', 'While down'], { env });
    runCli(['memory', 'replace', '--target', 'memory', '--old', 'Before', '--content', 'Before start (edited)'], { env });
    expect(runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once'], { env }).code).toBe(0);
    expect(readFileSync(memoryFile, 'utf8')).toBe('Before start (edited)\n§\nWhile running\n§\nWhile down');
  });

  it('a bad memory setting or mirror profile is refused before anything runs: serve exits 2, providers run exits 2, a rebuild of a profile never written exits 3 (outside test, session 34, helper-94 F5, F11)', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    const mirror = join(dir, 'mirror');
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'kept'], { env }).code).toBe(0);
    expect(runCli(['memory', 'mirror', 'rebuild', '--dir', mirror], { env }).code).toBe(0);
    // Before, serve listened and answered every memory write 400, or logged the profile and went on serving (a 60 s timeout here).
    const bads: Array<Record<string, string>> = [{ SESSION_LEDGER_MEMORY_BUDGET: 'abc' }, { SESSION_LEDGER_MEMORY_MIRROR: mirror, SESSION_LEDGER_MEMORY_MIRROR_PROFILE: 'my work' }];
    for (const bad of bads) {
      const served = runCli(['serve', '--port', '0'], { env: { ...env, ...bad } });
      expect([served.code, served.stderr.trim().split('\n').length]).toEqual([2, 1]);
    }
    const run = runCli(['memory', 'providers', 'run', '--mirror', mirror, '--mirror-profile', 'work ', '--once'], { env });
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining('Invalid profile name: "work "')]);
    const rebuilt = runCli(['memory', 'mirror', 'rebuild', '--dir', mirror, '--profile', 'wrok'], { env });
    expect([rebuilt.code, rebuilt.stderr]).toEqual([3, expect.stringContaining('No memory was ever written to profile wrok')]);
    expect(readFileSync(join(mirror, 'MEMORY.md'), 'utf8')).toBe('kept');
  });

  it('memory list prints the revision on stderr; --expected-revision refuses a write once the profile moved (exit 1) (helper-94 F4)', () => {
    const env = storeIn(tempDir());
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'Uses the blue notebook'], { env }).code).toBe(0);
    const listed = runCli(['memory', 'list'], { env });
    expect(listed.stderr.trim()).toBe('memory-default@0');
    expect(runCli(['memory', 'replace', '--target', 'memory', '--old', 'blue notebook', '--content', 'Uses the blue pad'], { env }).code).toBe(0);
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'Bank PIN hint is in the red notebook'], { env }).code).toBe(0);
    const stale = runCli(['memory', 'remove', '--target', 'memory', '--old', 'notebook', '--expected-revision', '0'], { env });
    expect([stale.code, stale.stderr]).toEqual([1, expect.stringContaining('expected 0')]);
    expect(runCli(['memory', 'remove', '--target', 'memory', '--old', 'notebook', '--expected-revision', 'x'], { env }).code).toBe(2);
    expect(runCli(['memory', 'list', '--json'], { env }).json()).toHaveLength(2);
    // One document with the revision, for a script (helper-94 F4: list --json had it only on stderr).
    const state = runCli(['memory', 'state', '--json'], { env }).json() as { profile: string; revision: number; entries: Array<{ content: string }> };
    expect([state.profile, state.revision, state.entries.map((entry) => entry.content)]).toEqual(['default', 2, ['Uses the blue pad', 'Bank PIN hint is in the red notebook']]);
    expect(runCli(['memory', 'remove', '--target', 'memory', '--old', 'red notebook', '--expected-revision', String(state.revision)], { env }).code).toBe(0);
    expect(runCli(['memory', 'state', '--profile', 'never'], { env }).stdout.trim()).toBe('memory-never@-1');
  });

  it('--entry-id names an entry by its id; --batch-id makes a retry write nothing, and other operations under it exit 1 (helper-94 F4)', () => {
    const env = storeIn(tempDir());
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'Uses the blue notebook'], { env }).code).toBe(0);
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'Uses the red notebook'], { env }).code).toBe(0);
    const [blue] = runCli(['memory', 'list', '--json'], { env }).json() as Array<{ id: string }>;
    const remove = ['memory', 'remove', '--target', 'memory', '--entry-id', blue!.id, '--batch-id', 'turn-4', '--json'];
    const first = runCli(remove, { env });
    expect([first.code, first.json()]).toEqual([0, expect.objectContaining({ written: true, revision: 2 })]);
    const again = runCli(remove, { env });
    expect([again.code, again.json()]).toEqual([0, expect.objectContaining({ written: false, revision: 2, receipts: [expect.objectContaining({ entryId: blue!.id, selector: null })] })]);
    const plain = runCli(remove.slice(0, -1), { env });
    expect([plain.code, plain.stdout]).toEqual([0, expect.stringContaining('nothing written')]);
    const other = runCli(['memory', 'remove', '--target', 'memory', '--old', 'red', '--batch-id', 'turn-4'], { env });
    expect([other.code, other.stderr.trim().split('\n')]).toEqual([1, [expect.stringContaining('already committed')]]);
    const both = runCli(['memory', 'remove', '--target', 'memory', '--old', 'red', '--entry-id', blue!.id], { env });
    expect([both.code, both.stderr.trim()]).toEqual([2, expect.stringContaining('not both')]);
    const gone = runCli(['memory', 'remove', '--target', 'memory', '--entry-id', blue!.id], { env });
    expect(gone.code).toBe(3);
    expect((runCli(['memory', 'list', '--json'], { env }).json() as Array<{ content: string }>).map((entry) => entry.content)).toEqual(['Uses the red notebook']);
  });

  it('memory mirror adopt keeps the hand edits of a parked mirror as a replace, a remove and an add, within the budget (helper-94 F1)', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    const mirror = join(dir, 'mirror');
    for (const content of ['Uses the blue notebook', 'Deadline is Friday', 'Likes tea']) {
      expect(runCli(['memory', 'add', '--target', 'memory', '--content', content], { env }).code).toBe(0);
    }
    expect(runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once'], { env }).code).toBe(0);
    const [blue] = runCli(['memory', 'list', '--json'], { env }).json() as Array<{ id: string }>;
    // By hand: a correction in place, a deletion, an addition; then a ledger write parks the mirror.
    writeFileSync(join(mirror, 'MEMORY.md'), 'Uses the green notebook\n§\nLikes tea\n§\nPrefers vim with the solarized theme everywhere\n');
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'Fourth note'], { env }).code).toBe(0);
    const parked = runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once', '--attempts', '1'], { env });
    expect([parked.code, parked.stdout]).toEqual([1, expect.stringContaining(`memory mirror adopt --dir ${mirror}`)]);

    const dry = runCli(['memory', 'mirror', 'adopt', '--dir', mirror, '--dry-run', '--json'], { env });
    expect([dry.code, dry.json()]).toEqual([0, expect.objectContaining({ batch: null, rebuilt: null, operations: [
      { op: 'replace', target: 'memory', entryId: blue!.id, content: 'Uses the green notebook' },
      expect.objectContaining({ op: 'remove', target: 'memory' }),
      { op: 'add', target: 'memory', content: 'Prefers vim with the solarized theme everywhere' },
    ] })]);
    // Over the budget: refused, nothing written, the files as they were.
    const over = runCli(['memory', 'mirror', 'adopt', '--dir', mirror, '--memory-budget', '80'], { env });
    expect([over.code, over.stderr.trim().split('\n')]).toEqual([1, [expect.stringContaining('would leave memory at')]]);
    expect(readFileSync(join(mirror, 'MEMORY.md'), 'utf8')).toBe('Uses the green notebook\n§\nLikes tea\n§\nPrefers vim with the solarized theme everywhere\n');

    const adopted = runCli(['memory', 'mirror', 'adopt', '--dir', mirror], { env });
    expect([adopted.code, adopted.stdout]).toEqual([0, expect.stringContaining('adopted 3 edit(s) into memory-default')]);
    const listed = runCli(['memory', 'list', '--json'], { env }).json() as Array<{ id: string; content: string }>;
    expect(listed.map((entry) => entry.content)).toEqual(['Uses the green notebook', 'Likes tea', 'Fourth note', 'Prefers vim with the solarized theme everywhere']);
    expect(listed[0]!.id).toBe(blue!.id);
    expect(readFileSync(join(mirror, 'MEMORY.md'), 'utf8')).toBe('Uses the green notebook\n§\nLikes tea\n§\nFourth note\n§\nPrefers vim with the solarized theme everywhere');
    expect(runCli(['memory', 'providers', 'resume'], { env }).code).toBe(0);
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'Fifth note'], { env }).code).toBe(0);
    expect(runCli(['memory', 'providers', 'run', '--mirror', mirror, '--once'], { env }).code).toBe(0);
    expect(readFileSync(join(mirror, 'MEMORY.md'), 'utf8')).toBe('Uses the green notebook\n§\nLikes tea\n§\nFourth note\n§\nPrefers vim with the solarized theme everywhere\n§\nFifth note');
    // Again: nothing left to adopt.
    expect(runCli(['memory', 'mirror', 'adopt', '--dir', mirror, '--json'], { env }).json()).toMatchObject({ operations: [], batch: null });
  });

  it("two profiles' mirrors under their own names: a hand edit parks one, the other goes on (helper-94 F13: both were markdown-mirror)", () => {
    const dir = tempDir();
    const env = storeIn(dir);
    const [home, work] = [join(dir, 'home'), join(dir, 'work')];
    const run = (...args: string[]) => runCli(['memory', 'providers', 'run', '--once', '--attempts', '1', ...args], { env });
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'home one'], { env }).code).toBe(0);
    expect(runCli(['memory', 'add', '--profile', 'work', '--target', 'memory', '--content', 'work one'], { env }).code).toBe(0);
    expect(run('--mirror', home).code).toBe(0);
    expect(run('--mirror', work, '--mirror-profile', 'work', '--mirror-name', 'mirror-work').code).toBe(0);
    writeFileSync(join(work, 'MEMORY.md'), 'work one\n§\nedited by hand');
    expect(runCli(['memory', 'add', '--profile', 'work', '--target', 'memory', '--content', 'work two'], { env }).code).toBe(0);
    expect(runCli(['memory', 'add', '--target', 'memory', '--content', 'home two'], { env }).code).toBe(0);
    expect(run('--mirror', work, '--mirror-profile', 'work', '--mirror-name', 'mirror-work').code).toBe(1);
    const home2 = run('--mirror', home, '--json');
    expect([home2.code, home2.json()]).toEqual([0, expect.objectContaining({ name: 'markdown-mirror', state: 'active' })]);
    expect(readFileSync(join(home, 'MEMORY.md'), 'utf8')).toBe('home one\n§\nhome two');
    expect(run('--mirror', work, '--mirror-name', 'bad name').code).toBe(2);
  });
});
