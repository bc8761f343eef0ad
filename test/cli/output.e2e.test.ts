import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { CLI, runCli, startCli, tempDir } from '../support/cli.js';

const storeIn = (dir: string) => ({ SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` });

/** Runs the CLI and insists on success; returns stdout and stderr. */
const ok = (args: string[], env: Record<string, string>) => {
  const result = runCli(args, { env });
  if (result.code !== 0) throw new Error(`${args.join(' ')} -> ${result.code}: ${result.stderr}`);
  return result;
};

/** ESC ]52 (clipboard), ESC ]0; (window title), BEL, CSI as C1, DEL, RLO, LRI, an ALM and a tag character. */
const HOSTILE = 'a\u001b]52;c;SGVsbG8=\u0007b\u001b]0;owned\u0007c\u009b31md\u007fe\u202ef\u2066g\u061ch\u{e0041}i\rj';
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|\u{e0041}/u;

describe('plain output that scripts capture (CLI)', () => {
  it('prints ids alone on stdout, one a line, and hints on stderr', () => {
    const env = storeIn(tempDir());
    const started = ok(['sessions', 'start', '--title', 'demo'], env);
    const id = started.stdout;
    expect(id).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(started.stderr).toContain('resume with: session-ledger sessions resume');
    const session = id.trim();

    const begun = ok(['turns', 'begin', session, '--ttl', '5m'], env);
    expect(begun.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(begun.stderr).toMatch(/^lease until /);
    const turn = begun.stdout.trim();

    const appended = ok(['messages', 'append', session, '--role', 'user', '--content', 'hello', '--turn', turn], env);
    expect(appended.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(ok(['turns', 'renew', session, turn], env).stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    expect(ok(['turns', 'end', session, turn], env).stdout).toBe('');
    expect(ok(['messages', 'rewrite', session, appended.stdout.trim(), '--content', 'hi'], env).stdout).toBe('');

    const tip = ok(['sessions', 'compress', session, '--summary', 'said hi'], env);
    expect(tip.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    expect(tip.stderr).toContain(`resume the whole conversation with: session-ledger sessions resume ${session}`);
    expect(ok(['sessions', 'end', tip.stdout.trim()], env).stdout).toBe('');
    expect(ok(['events', 'append', 'orders', '--type', 'placed', '--data', '{}'], env).stdout).toBe('0\n');
    const unparked = ok(['memory', 'providers', 'resume'], env);
    expect([unparked.stdout, unparked.stderr]).toEqual(['', 'nothing parked\n']);
  });

  it('serve prints its URL alone on stdout, the rest on stderr', async () => {
    const server = startCli(['serve', '--port', '0'], storeIn(tempDir()));
    try {
      await server.waitFor((out) => out.endsWith('\n'), 'the URL');
      expect(server.stdout()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
      // stderr is another pipe: its line may arrive a little later
      for (let tries = 0; !server.stderr().includes('listening on') && tries < 500; tries += 1) await new Promise((r) => setTimeout(r, 20));
      expect(server.stderr()).toContain('listening on');
    } finally {
      await server.stop();
    }
    expect(server.stdout()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
  });

  it('captures the id with $(...) in a shell, and the next command works with it', () => {
    const env = { ...process.env, ...storeIn(tempDir()), SESSION_LEDGER_DEBUG: '' };
    const cli = `"${process.execPath}" "${CLI}"`;
    const script = `set -e; ID=$(${cli} sessions start 2>/dev/null); TURN=$(${cli} turns begin "$ID" 2>/dev/null); ${cli} messages append "$ID" --role user --content hi --turn "$TURN" 2>/dev/null >/dev/null; ${cli} turns end "$ID" "$TURN" 2>/dev/null; ${cli} --json sessions show "$ID"`;
    const result = spawnSync('sh', ['-c', script], { encoding: 'utf8', env });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout).messages.map((m: { content: string }) => m.content)).toEqual(['hi']);
  });

  it('sessions list keeps the same seven tab-separated columns for live, ended and idle rows', () => {
    const env = storeIn(tempDir());
    const live = ok(['sessions', 'start', '--title', 'two\twords\nand a line'], env).stdout.trim();
    ok(['turns', 'begin', live, '--ttl', '10m'], env);
    const ended = ok(['sessions', 'start'], env).stdout.trim();
    ok(['sessions', 'end', ended], env);
    const idle = ok(['sessions', 'start', '--title', 'plain'], env).stdout.trim();

    const rows = ok(['sessions', 'list'], env).stdout.trimEnd().split('\n').map((line) => line.split('\t'));

    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row).toHaveLength(7);
    const byId = new Map(rows.map((row) => [row[0], row]));
    expect(byId.get(live)!.slice(5)).toEqual(['live', 'two\\u0009words\\u000aand a line']);
    expect(byId.get(ended)!.slice(5)).toEqual(['ended', '-']);
    expect(byId.get(idle)!.slice(5)).toEqual(['idle', 'plain']);
  });
});

describe('terminal-safe output (CLI)', () => {
  const env = storeIn(tempDir());
  let id = '';
  beforeAll(async () => {
    id = ok(['sessions', 'start', '--title', HOSTILE], env).stdout.split('\n')[0]!;
    ok(['messages', 'append', id, '--role', 'tool', '--content', `${HOSTILE}\nsecond line`, '--tool-name', HOSTILE], env);
    ok(['sessions', 'end', id, '--reason', HOSTILE], env);
    ok(['events', 'append', `raw-${id}`, '--type', 'note', '--data', JSON.stringify({ text: HOSTILE })], env);
    // A hostile event type can no longer be appended through any surface; a store written before
    // that rule (or by another tool) may still hold one, and printing it must be just as safe.
    const store = openSqliteStore(env.SESSION_LEDGER_STORE.slice('sqlite:'.length));
    await store.appendToStream(`raw-${id}`, [{ id: newId(), type: HOSTILE, data: { text: HOSTILE } }]);
    await store.close();
    ok(['memory', 'add', '--target', 'memory', '--content', HOSTILE], env);
  });

  it('escapes C0, C1, DEL, bidi and tag characters in everything printed from stored data, keeping a message readable', () => {
    const outputs = [
      ['sessions', 'show', id],
      ['sessions', 'show', id, '--view', 'raw'],
      ['sessions', 'resume', id],
      ['sessions', 'list'],
      ['events', 'read', `raw-${id}`],
      ['events', 'read', `session-${id}`],
      ['events', 'all'],
      ['memory', 'list'],
    ].map((args) => [args, ok(args, env).stdout] as const);
    for (const [args, stdout] of outputs) {
      expect({ args, unsafe: UNSAFE.test(stdout) }).toEqual({ args, unsafe: false });
    }
    const resumed = ok(['sessions', 'resume', id], env).stdout;
    expect(resumed).toContain('a\\u001b]52;c;SGVsbG8=\\u0007b\\u001b]0;owned\\u0007c\\u009b31md\\u007fe\\u202ef\\u2066g\\u061ch\\udb40\\udc41i\\u000dj');
    expect(resumed).toContain('\n  | second line\n');
  });

  it('escapes them in errors on stderr too', () => {
    const result = runCli(['sessions', 'show', `x${HOSTILE}`], { env });
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(UNSAFE.test(result.stderr)).toBe(false);
  });

  it('prints an error whole on its one line: a newline in a name is \\u000a, never the end of the message (outside test, session 25)', () => {
    // before: "Stream not found: a", naming another stream, which may exist
    const result = runCli(['events', 'read', 'a\nb'], { env });
    expect([result.code, result.stderr]).toEqual([3, 'session-ledger: Stream not found: a\\u000ab\n']);
    // a name no subscriber can have is bad input, not "not found" (it said "subscriber not found: a")
    for (const command of [['subscribers', 'status', 'a\nb'], ['subscribers', 'resume', 'a\nb']]) {
      const refused = runCli(command, { env });
      expect([refused.code, refused.stderr]).toEqual([2, 'session-ledger: Invalid subscriber name: "a\\nb"\n']);
    }
    const provider = runCli(['memory', 'providers', 'status', 'a\nb'], { env });
    expect([provider.code, provider.stderr]).toEqual([2, 'session-ledger: Invalid memory provider name: "a\\nb"\n']);
  });

  it('--json escapes them as \\uXXXX and stays valid JSON holding the same text', () => {
    for (const args of [
      ['sessions', 'show', id, '--json'],
      ['sessions', 'list', '--json'],
      ['events', 'read', `raw-${id}`, '--json'],
      ['memory', 'list', '--json'],
    ]) {
      const result = ok(args, env);
      expect({ args, unsafe: UNSAFE.test(result.stdout) }).toEqual({ args, unsafe: false });
      expect(result.stdout).toContain('\\u009b');
      expect(result.stdout).toContain('\\u202e');
      // memory stores a carriage return as the newline Hermes reads (session 26)
      const stored = args[0] === 'memory' ? HOSTILE.replace(/\r\n?/g, '\n') : HOSTILE;
      expect(JSON.stringify(JSON.parse(result.stdout))).toContain(JSON.stringify(stored).slice(1, -1));
    }
    expect(ok(['sessions', 'show', id, '--json'], env).json().messages[0].content).toBe(`${HOSTILE}\nsecond line`);
    const lines = ok(['events', 'all'], env).stdout.trim().split('\n');
    expect(lines.map((line) => JSON.parse(line)).find((event) => event.stream === `raw-${id}`).data).toEqual({ text: HOSTILE });
  });
});

describe('a closed pipe (CLI)', () => {
  it('events all | head -1 exits 0 quietly, with no stack trace', async () => {
    const dir = tempDir();
    const store = openSqliteStore(join(dir, 'ledger.sqlite'));
    // well past a pipe's buffer, so the writer meets the closed pipe
    for (let stream = 0; stream < 20; stream += 1) {
      await store.appendToStream(`s-${stream}`, Array.from({ length: 100 }, (_, n) => ({ id: newId(), type: 't', data: { n, pad: 'x'.repeat(400) } })));
    }
    await store.close();
    const env = { ...process.env, ...storeIn(dir), SESSION_LEDGER_DEBUG: '' };
    for (const command of ['events all', 'events read s-3', '--json events read s-4', 'sessions list --json']) {
      const result = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" ${command} | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8', env });
      expect({ command, code: result.stdout.trim(), stderr: result.stderr }).toEqual({ command, code: '0', stderr: '' });
    }
  });

  it('a failing command keeps its exit status when its reader goes away: audit verify of a tampered ledger 2>&1 | head exits 1 (outside test, session 25)', async () => {
    const dir = tempDir();
    const file = join(dir, 'ledger.sqlite');
    const store = openSqliteStore(file);
    await store.appendToStream('s', Array.from({ length: 3000 }, (_, n) => ({ id: newId(), type: 't', data: { n } })));
    await store.close();
    // every event edited: thousands of break lines on stderr, well past a pipe's buffer
    const db = new Database(file);
    db.prepare(`UPDATE events SET data = '{"n":-1}'`).run();
    db.close();
    const env = { ...process.env, ...storeIn(dir), SESSION_LEDGER_DEBUG: '' };
    for (const command of ['audit verify --max-breaks 10000', '--json audit verify --max-breaks 10000']) {
      const result = spawnSync('bash', ['-c', `"${process.execPath}" "${CLI}" ${command} 2>&1 | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: 'utf8', env });
      // before: 0, as if the ledger were intact
      expect({ command, code: result.stdout.trim() }).toEqual({ command, code: '1' });
    }
  });
});
