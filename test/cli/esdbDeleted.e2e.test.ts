import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@session-ledger/core';
import { startEsdbTestServer, type EsdbTestServer } from '../esdb-server/index.js';
import { runCliAsync as run, tempDir } from '../support/cli.js';


const roots = (stdout: string) => (JSON.parse(stdout) as { sessions: Array<{ rootId: string }> }).sessions.map((row) => row.rootId).sort();

/**
 * EventStoreDB keeps a deleted session's events in $all until a scavenge (the test double does too):
 * audit verify, sessions list and migrate must account for them, before and after the scavenge.
 */
describe('a session deleted on EventStoreDB (test double)', () => {
  let server: EsdbTestServer;
  const dir = tempDir('sl-esdb-deleted-');
  beforeAll(async () => {
    server = await startEsdbTestServer();
    const on = (...args: string[]) => run(['--store', server.url, ...args]);
    for (const id of ['kept', 'gone']) {
      expect((await on('sessions', 'start', '--id', id, '--title', id)).code).toBe(0);
      expect((await on('messages', 'append', id, '--role', 'user', '--content', `hello from ${id}`)).code).toBe(0);
    }
    expect((await on('sessions', 'delete', 'gone', '--yes')).code).toBe(0);
  });
  afterAll(() => server.close());

  const checks = (deletedInAll: number) => async () => {
    const on = (...args: string[]) => run(['--store', server.url, ...args]);
    const verify = await on('audit', 'verify', '--json');
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
    const report = JSON.parse(verify.stdout) as { ok: boolean; deletedInAll?: number };
    expect(report.ok).toBe(true);
    expect(report.deletedInAll).toBe(deletedInAll > 0 ? deletedInAll : undefined);
    const plain = await on('audit', 'verify');
    expect(plain.code).toBe(0);
    if (deletedInAll > 0) expect(plain.stderr).toContain(`${deletedInAll} events of deleted streams are still in $all until a scavenge`);
    else expect(plain.stderr).toBe('');

    const list = await on('sessions', 'list', '--json');
    expect(list.code).toBe(0);
    expect(roots(list.stdout)).toEqual(['kept']);

    const target = join(dir, `${newId()}.sqlite`);
    const migrated = await run(['migrate', '--from', server.url, '--to', `sqlite:${target}`, '--json']);
    expect(migrated.code).toBe(0);
    expect(JSON.parse(migrated.stdout)).toMatchObject({ ok: true, eventsOfDeletedStreams: deletedInAll });
    const there = (...args: string[]) => run(['--store', `sqlite:${target}`, ...args]);
    expect(roots((await there('sessions', 'list', '--json')).stdout)).toEqual(['kept']);
    expect((await there('sessions', 'show', 'gone')).code).toBe(3);
    expect((await there('audit', 'verify')).code).toBe(0);
  };

  // The deleted session's start and message.
  it('before a scavenge: audit verify exits 0 and counts the deleted events, sessions list and migrate leave the session out', checks(2));

  it('after a scavenge: the same, with nothing left to account for', async () => {
    expect(await server.scavenge()).toBe(2);
    await checks(0)();
  });
});
