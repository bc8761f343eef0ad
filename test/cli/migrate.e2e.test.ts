import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@session-ledger/core';
import { startEsdbTestServer, type EsdbTestServer } from '../esdb-server/index.js';
import { allEvents, comparable, populate, sqliteAt } from '../migrate/fixture.js';
import { runCliAsync as run, tempDir } from '../support/cli.js';


describe('session-ledger migrate (CLI)', () => {
  let server: EsdbTestServer;
  const dir = tempDir('sl-migrate-');
  const source = join(dir, 'source.sqlite');
  beforeAll(async () => {
    server = await startEsdbTestServer();
    const store = sqliteAt(source);
    await populate(store);
    await store.close();
  });
  afterAll(() => server.close());

  it('copies sqlite to sqlite and reports the verified summary as JSON, quietly in a pipe', async () => {
    const target = join(dir, `${newId()}.sqlite`);
    const result = await run(['migrate', '--from', `sqlite:${source}`, '--to', `sqlite:${target}`, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, complete: true, streams: 6, verified: 6, tombstoned: 1, softDeleted: 1, mismatches: [] });
    const [from, to] = [sqliteAt(source), sqliteAt(target)];
    expect(comparable(await allEvents(to))).toEqual(comparable(await allEvents(from)));
    await Promise.all([from.close(), to.close()]);
  });

  it('copies sqlite to EventStoreDB and back, through esdb:// and kurrentdb:// URLs', async () => {
    const there = await run(['migrate', '--from', `sqlite:${source}`, '--to', server.url]);
    expect(there.code).toBe(0);
    expect(there.stdout).toContain('ok: every stream verified');
    const back = join(dir, `${newId()}.sqlite`);
    const kurrent = server.url.replace('esdb://', 'kurrentdb://');
    const home = await run(['migrate', '--from', kurrent, '--to', `sqlite:${back}`, '--json']);
    expect(home.code).toBe(0);
    expect(JSON.parse(home.stdout)).toMatchObject({ ok: true, streams: 4, verified: 4 });
    const again = await run(['migrate', '--from', `sqlite:${source}`, '--to', server.url, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, eventsRead: 0 });
  });

  it('exits 1 and names the stream when the target holds other events', async () => {
    const target = join(dir, `${newId()}.sqlite`);
    const store = sqliteAt(target);
    await store.appendToStream('session-a', [{ id: newId(), type: 'foreign', data: {} }]);
    await store.close();
    const result = await run(['migrate', '--from', `sqlite:${source}`, '--to', `sqlite:${target}`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('mismatch session-a');
    expect(result.stdout).toContain('FAILED: 1 streams differ');
  });

  it.each([
    [['migrate', '--from', 'sqlite:x.sqlite'], 2],
    [['migrate', '--from', 'ftp://x', '--to', 'sqlite:y.sqlite'], 2],
    [['migrate', '--from', 'sqlite:same.sqlite', '--to', 'sqlite:same.sqlite'], 2],
    [['migrate', '--from', 'sqlite:source.sqlite', '--to', 'sqlite:t.sqlite', '--page-size', 'many'], 2],
    [['migrate', '--from', 'sqlite:/nonexistent/dir/absent.sqlite', '--to', 'sqlite:t.sqlite'], 4],
    [['migrate', '--from', 'esdb://127.0.0.1:1?tls=false', '--to', 'sqlite:t2.sqlite'], 4],
  ])('refuses %j with one line and exit %i', async (args, code) => {
    const result = await run(args.map((arg) => arg.replace(/^sqlite:(?!\/)/, `sqlite:${dir}/`)));
    expect(result.code).toBe(code);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
