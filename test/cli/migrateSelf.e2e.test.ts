import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from '@session-ledger/core';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { runCli, tempDir } from '../support/cli.js';

/** Every file of a directory with its bytes: the SQLite file, and any -wal or -shm beside it. */
const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name)).toString('base64')]));

describe('migrate refuses a target that is its source (CLI)', () => {
  it('the same SQLite file by another path, a symlink or a hard link: exit 2, one line, nothing written into it', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    mkdirSync(data);
    const source = join(data, 'source.sqlite');
    const store = openSqliteStore(source);
    await store.appendToStream('s', [{ id: newId(), type: 't', data: { n: 1 } }]);
    await store.close();
    symlinkSync(source, join(dir, 'alias.sqlite'));
    symlinkSync(data, join(dir, 'link-dir'));
    linkSync(source, join(dir, 'hard.sqlite'));
    const before = snapshot(data);

    for (const to of [
      `sqlite:${data}/./source.sqlite`,
      `sqlite:${data}/../data/source.sqlite?durability=full`,
      `sqlite:${join(dir, 'alias.sqlite')}`,
      `sqlite:${join(dir, 'link-dir', 'source.sqlite')}`,
      `sqlite:${join(dir, 'hard.sqlite')}`,
    ]) {
      const result = runCli(['migrate', '--from', `sqlite:${source}`, '--to', to]);
      expect({ to, code: result.code, stdout: result.stdout }).toEqual({ to, code: 2, stdout: '' });
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('name the same store')]);
    }
    expect(snapshot(data)).toEqual(before);

    const elsewhere = join(dir, 'copy.sqlite');
    expect(runCli(['migrate', '--from', `sqlite:${source}`, '--to', `sqlite:${elsewhere}`]).code).toBe(0);
    expect(existsSync(elsewhere)).toBe(true);
  });

  it('the same EventStoreDB hosts under another spelling: exit 2 before connecting', () => {
    for (const [from, to] of [
      ['esdb://127.0.0.1:1?tls=false', 'kurrentdb://127.0.0.1:1?tls=false&keepAliveInterval=-1'],
      ['esdb+discover://Node-A:1,node-b:1?tls=false', 'esdb://admin:changeit@node-b:1,node-a:1?tls=false'],
      ['esdb://localhost?tls=false', 'esdb://LOCALHOST:2113?tls=false'],
    ]) {
      const result = runCli(['migrate', '--from', from!, '--to', to!]);
      expect({ from, to, code: result.code }).toEqual({ from, to, code: 2 });
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('name the same store')]);
    }
  });
});
