import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, tempDir } from '../support/cli.js';

const storeIn = (dir: string) => ({ SESSION_LEDGER_STORE: `sqlite:${join(dir, 'ledger.sqlite')}` });
const oneLine = (stderr: string) => expect(stderr.trim().split('\n')).toHaveLength(1);

/** Everything stored, as `events all` prints it: what must not change when an input is refused. */
const everything = (env: Record<string, string>) => runCli(['events', 'all'], { env }).stdout;

describe('CLI: well-formed input only', () => {
  it('a lone surrogate cannot arrive through argv: Node decodes the bytes as UTF-8, each invalid byte to U+FFFD, which is stored as is and verifies', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    expect(runCli(['sessions', 'start', '--id', 's'], { env }).code).toBe(0);
    // ED A0 80 is U+D800 encoded as if it were a scalar value (WTF-8/CESU-8): not UTF-8.
    const shell = spawnSync('/bin/sh', ['-c', `exec "$0" "$1" messages append s --role user --id m1 --content "$(printf 'a\\355\\240\\200b')"`, process.execPath, CLI], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    expect(shell.status).toBe(0);
    const shown = runCli(['sessions', 'show', 's', '--json'], { env }).json() as { messages: Array<{ content: string }> };
    expect(shown.messages[0]!.content).toBe('a\ufffd\ufffd\ufffdb');
    expect(runCli(['audit', 'verify'], { env }).code).toBe(0);
  });

  it('a JSON option escaping a lone surrogate (--tool-calls, --data, --metadata): exit 2, one line naming where, nothing stored', () => {
    const env = storeIn(tempDir());
    expect(runCli(['sessions', 'start', '--id', 's'], { env }).code).toBe(0);
    const before = everything(env);
    const cases: Array<[string[], string]> = [
      [['messages', 'append', 's', '--role', 'assistant', '--content', 'x', '--tool-calls', '[{"id":"c1","function":{"name":"\\ud800"}}]'], '--tool-calls (at $[0].function.name)'],
      [['events', 'append', 'orders', '--type', 'placed', '--data', '{"text":"\\udc00"}'], '--data (at $.text)'],
      [['events', 'append', 'orders', '--type', 'placed', '--data', '{}', '--metadata', '{"note":"a\\ud800"}'], '--metadata (at $.note)'],
    ];
    for (const [args, where] of cases) {
      const result = runCli(args, { env });
      expect(result.code, args.join(' ')).toBe(2);
      oneLine(result.stderr);
      expect(result.stderr).toContain(`${where} holds a string that is not well-formed UTF-16 (a lone surrogate)`);
    }
    expect(everything(env)).toBe(before);
  });

  it('a JSON option with a key named __proto__: exit 2, one line naming it, nothing stored (it would be dropped on read)', () => {
    const env = storeIn(tempDir());
    expect(runCli(['sessions', 'start', '--id', 's'], { env }).code).toBe(0);
    const before = everything(env);
    const cases: Array<[string[], string]> = [
      [['events', 'append', 'orders', '--type', 'placed', '--data', '{"__proto__":{"x":1},"keep":2}'], '--data (at $.__proto__)'],
      [['messages', 'append', 's', '--role', 'assistant', '--content', 'x', '--tool-calls', '[{"id":"c1","__proto__":{}}]'], '--tool-calls (at $[0].__proto__)'],
    ];
    for (const [args, where] of cases) {
      const result = runCli(args, { env });
      expect([result.code, result.stderr], args.join(' ')).toEqual([2, `session-ledger: Refused: ${where} holds a key named "__proto__", which JavaScript readers drop; nothing was stored\n`]);
    }
    expect(everything(env)).toBe(before);
  });

  it('a JSON option holding a whole number JSON would change (past 2^53): exit 2, one line naming it, nothing stored', () => {
    const env = storeIn(tempDir());
    expect(runCli(['sessions', 'start', '--id', 's'], { env }).code).toBe(0);
    const before = everything(env);
    for (const args of [
      ['events', 'append', 'orders', '--type', 'placed', '--data', '{"n":9007199254740993}'],
      ['events', 'append', 'orders', '--type', 'placed', '--data', '{}', '--metadata', '{"n":18446744073709551615}'],
    ]) {
      const result = runCli(args, { env });
      expect(result.code, args.join(' ')).toBe(2);
      oneLine(result.stderr);
      expect(result.stderr).toMatch(/holds the number \d+, which JSON keeps only as \d+ \(a double\): send it as a string/);
    }
    expect(everything(env)).toBe(before);
  });

  it('a content file or a memory batch file that is not UTF-8, or a batch escaping a lone surrogate: exit 2, nothing stored', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    expect(runCli(['sessions', 'start', '--id', 's'], { env }).code).toBe(0);
    const before = everything(env);
    const latin1 = join(dir, 'latin1.txt');
    writeFileSync(latin1, Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const content = runCli(['messages', 'append', 's', '--role', 'user', '--content-file', latin1], { env });
    expect(content.code).toBe(2);
    oneLine(content.stderr);
    expect(content.stderr).toContain('is not valid UTF-8');

    const escaped = join(dir, 'batch.json');
    writeFileSync(escaped, '[{"op":"add","target":"user","content":"tea \\ud800"}]');
    const batch = runCli(['memory', 'apply', '--file', escaped], { env });
    expect(batch.code).toBe(2);
    oneLine(batch.stderr);
    expect(batch.stderr).toContain('(at $[0].content) holds a string that is not well-formed UTF-16');

    const notUtf8 = join(dir, 'batch-latin1.json');
    writeFileSync(notUtf8, Buffer.concat([Buffer.from('[{"op":"add","target":"user","content":"caf'), Buffer.from([0xe9]), Buffer.from('"}]')]));
    const bytes = runCli(['memory', 'apply', '--file', notUtf8], { env });
    expect(bytes.code).toBe(2);
    expect(bytes.stderr).toContain('is not valid UTF-8');

    // 10,000 levels crashed the check of its strings (exit 70, "Maximum call stack size exceeded").
    const deep = join(dir, 'batch-deep.json');
    writeFileSync(deep, `[{"op":"add","target":"user","content":"tea","x":${'['.repeat(10_000)}${']'.repeat(10_000)}}]`);
    const nested = runCli(['memory', 'apply', '--file', deep], { env });
    expect(nested.code).toBe(2);
    oneLine(nested.stderr);
    expect(nested.stderr).toContain('nests JSON deeper than 100 levels');
    const option = runCli(['events', 'append', 'chat', '--type', 'said', '--data', `${'['.repeat(101)}${']'.repeat(101)}`], { env });
    expect(option.code).toBe(2);
    // A repeated key kept only the last value (outside test, session 21).
    const repeated = runCli(['events', 'append', 'chat', '--type', 'said', '--data', '{"k":1,"k":2}'], { env });
    expect(repeated.code).toBe(2);
    oneLine(repeated.stderr);
    expect(repeated.stderr).toContain('--data repeats a key in an object');
    expect(everything(env)).toBe(before);
  });

  // Outside test, session 23: the mark was stripped, so the stored content was not the file's text.
  it('a content file beginning with a byte-order mark is stored with it; a JSON batch file may carry one', () => {
    const dir = tempDir();
    const env = storeIn(dir);
    expect(runCli(['sessions', 'start', '--id', 's'], { env }).code).toBe(0);
    const marked = join(dir, 'bom.txt');
    writeFileSync(marked, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('hi')]));
    expect(runCli(['messages', 'append', 's', '--role', 'user', '--content-file', marked], { env }).code).toBe(0);
    const shown = runCli(['--json', 'sessions', 'show', 's'], { env }).json() as { messages: Array<{ content: string }> };
    expect(shown.messages.map((message) => message.content)).toEqual(['\ufeffhi']);
    const batch = join(dir, 'bom.json');
    writeFileSync(batch, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"op":"add","target":"user","content":"tea"}]')]));
    expect(runCli(['memory', 'apply', '--file', batch], { env }).code).toBe(0);
  });

  it("a stream name or event type beginning with $ (EventStoreDB's own): exit 2, one line, nothing stored", () => {
    const env = storeIn(tempDir());
    expect(runCli(['events', 'append', 'chat', '--type', 'said', '--data', '{}'], { env }).code).toBe(0);
    const before = everything(env);
    for (const [stream, type] of [['$all', 'said'], ['$$chat', 'said'], ['chat', '$metadata']]) {
      const refused = runCli(['events', 'append', stream!, '--type', type!, '--data', '{}'], { env });
      expect({ stream, code: refused.code }).toEqual({ stream, code: 2 });
      expect(refused.stderr).toContain("EventStoreDB's own");
      oneLine(refused.stderr);
    }
    expect(everything(env)).toBe(before);
  });
});
