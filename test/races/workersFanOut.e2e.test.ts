import { existsSync, mkdirSync, readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import { workerPids } from '@session-ledger/cli';
import { createLedger, newId } from '@session-ledger/core';
import { createMarkdownMirror, PROVIDER_STATUS_STREAM } from '@session-ledger/memory';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { describe, expect, it } from 'vitest';
import { startServer } from '../support/http.js';
import { tempLedger } from '../store-sqlite/tempLedger.js';
import { eventually, postFresh, serving } from './workerProcesses.js';

const FILES = ['MEMORY.md', 'USER.md', '.session-ledger-mirror.json'];
const filesOf = (dir: string) => FILES.map((name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : null));

/**
 * `serve --workers 2 --mirror DIR`: one worker runs the memory fan-out. Who writes the mirror is
 * seen from outside: its files are written through temp files named after the writing process
 * (`.MEMORY.md.<pid>.<random>.tmp`). Each fan-out also records, in the ledger, every imported
 * (legacy) mutation it skips: two fan-outs would record each twice.
 */
describe('serve --workers 2 --mirror: one memory fan-out, taken over by the replacement', { timeout: 120_000 }, () => {
  it('mutations through both workers reach the mirror once, before and after kill -9 of the fan-out worker', async () => {
    const temp = tempLedger('workers-fanout');
    const mirror = join(temp.dir, 'mirror');
    mkdirSync(mirror);
    const writes = new Map<string, number>(); // temp file -> writing pid
    const watcher = watch(mirror, (_event, name) => {
      const pid = /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(String(name))?.[1];
      if (pid) writes.set(String(name), Number(pid));
    });
    const served = await startServer({ SESSION_LEDGER_STORE: `sqlite:${temp.file}` }, ['--workers', '2', '--mirror', mirror]);
    const store = openSqliteStore(temp.file);
    // The fan-out first fills the empty directory (the mirror's prepare): those writes are no mutation's.
    await eventually(() => existsSync(join(mirror, '.session-ledger-mirror.json')), 'the mirror filled at start');
    await new Promise((resolve) => setTimeout(resolve, 200)); // the watcher's events of those writes
    writes.clear();
    const mutate = async (path: string, body: unknown, receipts = 1) => {
      const answer = await postFresh(served.url, `/memory/${path}`, body);
      expect([answer.status, answer.json.receipts?.length]).toEqual([200, receipts]);
    };
    /** Imported data: a replace that never recorded what it replaced, which the fan-out skips (and records). */
    const legacy = () =>
      createLedger(store).append('memory-imported', [{ id: newId(), type: 'memory.entry_replaced', data: { entryId: newId(), target: 'memory', content: 'x' } }]);
    /** The mirror catches up with what one process writes from the stored memory (a rebuild). */
    let counted = 0;
    /** `batched`: writes saved by batches, each written at once (its files and the mapping once, not once an operation). */
    const caughtUp = async (phase: string, batched = 0) => {
      const expected = join(temp.dir, `expected-${phase}`);
      await createMarkdownMirror({ dir: expected }).rebuild(store);
      await eventually(() => JSON.stringify(filesOf(mirror)) === JSON.stringify(filesOf(expected)), `the mirror (${phase})`);
      const events = (await store.readStream('memory-default', { maxCount: 1000 })).length;
      await eventually(() => writes.size >= 2 * (events - counted) - batched, `the mirror's writes (${phase})`); // the watcher's events may come after the files
      counted = events;
      const status = (await store.readStream(PROVIDER_STATUS_STREAM, { maxCount: 1000 })).map((event) => event.type);
      return { events, status, writers: new Set(writes.values()), files: writes.size };
    };
    try {
      for (let index = 0; index < 4; index += 1) await mutate('add', { target: 'memory', content: `note ${index}` });
      await mutate('add', { target: 'user', content: 'user 0' });
      await mutate('replace', { target: 'memory', old: 'note 1', content: 'note one' });
      await mutate('remove', { target: 'memory', old: 'note 2' });
      await mutate('apply', [{ op: 'add', target: 'memory', content: 'batch a' }, { op: 'add', target: 'user', content: 'batch b' }], 2);
      await legacy();
      await mutate('add', { target: 'memory', content: 'after legacy' });
      // The two-operation batch is written at once: MEMORY.md, USER.md and the mapping, 3 writes for 2 mutations.
      const before = await caughtUp('before', 1);
      const workers = workerPids(served.server.child.pid!);
      // One writer, one of the workers; each mutation written once (its target file and the mapping).
      expect([before.writers.size, workers.includes([...before.writers][0]!), before.files]).toEqual([1, true, 2 * before.events - 1]);
      expect(before.status).toEqual(['memory.provider_registered', 'memory.provider_skipped']);

      const [fanOut] = before.writers;
      process.kill(fanOut!, 'SIGKILL');
      await eventually(() => served.server.stderr().includes(`worker process ${fanOut} was killed by SIGKILL; starting another`), 'the report');
      await eventually(() => workerPids(served.server.child.pid!).filter((pid) => !workers.includes(pid)).length === 1, 'the replacement');
      const [replacement] = workerPids(served.server.child.pid!).filter((pid) => !workers.includes(pid));
      await serving(served.url);
      writes.clear();
      await legacy();
      await mutate('add', { target: 'memory', content: 'note 4' });
      await mutate('replace', { target: 'memory', old: 'note 0', content: 'note zero' });
      await mutate('remove', { target: 'user', old: 'user 0' });
      await mutate('add', { target: 'user', content: 'after kill' });
      const after = await caughtUp('after');
      // The replacement writes the mirror now, alone, each new mutation once; the skip is recorded once.
      expect([[...after.writers], after.files]).toEqual([[replacement], 2 * (after.events - before.events)]);
      expect(after.status).toEqual(['memory.provider_registered', 'memory.provider_skipped', 'memory.provider_skipped']);
      expect(readFileSync(join(mirror, 'USER.md'), 'utf8')).toBe('batch b\n§\nafter kill');
    } finally {
      watcher.close();
      await store.close();
      await served.stop();
      temp.remove();
    }
  });
});
