import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createMarkdownMirror, MAPPING_FILE } from '@session-ledger/memory';
import { tempDirs } from './helpers.js';

const run = promisify(execFile);
const APPLIER = fileURLToPath(new URL('./fixtures/mirrorApplier.mjs', import.meta.url));
/** Entries of the sequence (fixtures/mirrorSequence.mjs): three mutations each. */
const ENTRIES = 150;
const PROCESSES = 3;

const temp = tempDirs();
afterEach(() => temp.cleanup());

const applied = (dir: string) => run(process.execPath, [APPLIER, dir, String(ENTRIES)]);
/** What a directory says: each file but the lock's, by name. */
const contents = (dir: string) =>
  Object.fromEntries(readdirSync(dir).filter((name) => !name.endsWith('.lock')).sort().map((name) => [name, readFileSync(join(dir, name), 'utf8')]));

/**
 * Two fan-outs of one provider name (two `serve --mirror DIR` on one store) deliver every mutation
 * to one directory, each in position order. Each apply reads the mapping, changes it and writes it
 * back: without a lock across processes, one process wrote its older result over a newer one, and
 * the mutations in between were lost from the files for good (outside test, session 23: 5 of 5
 * runs of two `serve --mirror` diverged from `memory list`).
 */
describe('Markdown mirror, several processes on one directory', () => {
  it('ends where one process applying the mutations alone ends', async () => {
    const alone = temp.make();
    await applied(alone);
    const shared = temp.make();
    const outputs = await Promise.all(Array.from({ length: PROCESSES }, () => applied(shared)));
    expect(outputs.map((output) => output.stdout)).toEqual(Array(PROCESSES).fill('done\n'));
    const expected = contents(alone);
    expect(JSON.parse(expected[MAPPING_FILE]!).position).toBe(String(3 * ENTRIES));
    expect(contents(shared)).toEqual(expected);
  });

  it("takes over the lock of a holder killed with -9 once it is stale, and waits for a live one", async () => {
    const dir = temp.make();
    const lock = join(dir, '.session-ledger-mirror.lock');
    mkdirSync(lock);
    // Left by a process killed while it wrote: never refreshed since.
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    const mirror = createMarkdownMirror({ dir });
    const add = (position: bigint, content: string) =>
      mirror.apply({ op: 'add', profile: 'default', entryId: content, target: 'memory', previousContent: null, content, selector: null, eventId: content, stream: 'memory-default', revision: position - 1n, position, causation: {} });
    await add(1n, 'after a dead holder');
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('after a dead holder');
    // A live holder (fresh lock): the apply waits for it, then writes.
    mkdirSync(lock);
    let applied = false;
    const waiting = add(2n, 'after a live holder').then(() => (applied = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(applied).toBe(false);
    await run('rmdir', [lock]);
    await waiting;
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toBe('after a dead holder\n§\nafter a live holder');
  });
});
