import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { runCliAsync as run, tempDir } from '../support/cli.js';

describe('migrate refuses what it cannot copy, in one line, before writing anything (CLI)', () => {
  const dir = tempDir('sl-migrate-refusals-');
  const source = join(dir, 'source.sqlite');
  beforeAll(async () => {
    const store = openSqliteStore(source);
    await store.appendToStream('s', [{ id: newId(), type: 't', data: { n: 1 } }]);
    await store.close();
  });

  it('an EventStoreDB source that cannot be reached: exit 4, and no target file is created', async () => {
    const target = join(dir, `${newId()}.sqlite`);
    const result = await run(['migrate', '--from', 'esdb://127.0.0.1:1?tls=false', '--to', `sqlite:${target}`]);
    expect(result.code).toBe(4);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('unavailable')]);
    expect(readdirSync(dir).filter((name) => name.startsWith(target.slice(dir.length + 1)))).toEqual([]);
  });

  it('an EventStoreDB URL with an option the client does not know: exit 2 and one line, not the client\'s warning', async () => {
    for (const args of [
      ['--from', `sqlite:${source}`, '--to', 'esdb://127.0.0.1:1?tls=false&foo=bar'],
      ['--from', 'esdb://127.0.0.1:1?tls=false&foo=bar', '--to', `sqlite:${join(dir, `${newId()}.sqlite`)}`],
    ]) {
      const result = await run(['migrate', ...args]);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('unknown option "foo"')]);
    }
  });

  it('memory: as source or target (always empty, gone at exit): exit 2 and one line', async () => {
    const target = join(dir, `${newId()}.sqlite`);
    for (const args of [
      ['--from', 'memory:', '--to', `sqlite:${target}`],
      ['--from', `sqlite:${source}`, '--to', 'Memory:'],
    ]) {
      const result = await run(['migrate', ...args]);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('cannot be memory:')]);
    }
    expect(existsSync(target)).toBe(false);
  });
});
