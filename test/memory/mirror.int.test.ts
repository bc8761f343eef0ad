import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedger, createMemoryStore, newId } from '@session-ledger/core';
import { memoryStream } from '@session-ledger/events';
import {
  createMarkdownMirror,
  createMemoryLedger,
  MAPPING_FILE,
  readProviderStatus,
  resumeProviders,
  startMemoryFanOut,
  type MemoryFanOut,
  type MemoryMutation,
} from '@session-ledger/memory';
import { tempDirs, until } from './helpers.js';

const temp = tempDirs();
const running: MemoryFanOut[] = [];
afterEach(async () => {
  for (const fanOut of running.splice(0)) await fanOut.stop();
  temp.cleanup();
});
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
/** Whether the file exists and holds exactly `text` (a mirror writes it some time after the mutation). */
const says = (dir: string, file: string, text: string) => existsSync(join(dir, file)) && read(dir, file) === text;
/** The position the directory's mapping records (null: none, or unreadable mid-write). */
const mappedAt = (dir: string): string | null => {
  try {
    return JSON.parse(read(dir, MAPPING_FILE)).position;
  } catch {
    return null;
  }
};
const quiet = { onWarning: () => undefined, retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } };

/** A mirror started over a directory holding a Hermes file it never wrote, on an empty profile: parked at start. */
const parkedOver = async (file: string, text: string) => {
  const store = createMemoryStore();
  const dir = temp.make();
  writeFileSync(join(dir, file), text);
  const fanOut = startMemoryFanOut(store, [createMarkdownMirror({ dir })], quiet);
  running.push(fanOut);
  await fanOut.caughtUp;
  expect((await readProviderStatus(store, 'markdown-mirror')).state).toBe('parked');
  return { store, dir };
};

describe('Markdown mirror provider', () => {
  it('keeps MEMORY.md and USER.md in Hermes format, written atomically, rebuildable from the stream', async () => {
    const store = createMemoryStore();
    const dir = temp.make();
    const mirror = createMarkdownMirror({ dir });
    const fanOut = startMemoryFanOut(store, [mirror], quiet);
    running.push(fanOut);
    const memory = createMemoryLedger(store);
    await memory.apply([
      { op: 'add', target: 'memory', content: 'Project uses pnpm' },
      { op: 'add', target: 'memory', content: 'CI runs on\nGitHub Actions' },
      { op: 'add', target: 'user', content: 'Name is Ada' },
    ]);
    const last = await memory.replace('memory', 'pnpm', 'Project uses npm workspaces');
    // Done when the mapping (written last) records the last mutation and the directory's lock is released.
    await until(() => {
      try {
        return JSON.parse(read(dir, MAPPING_FILE)).position === last.position.toString() && !existsSync(join(dir, '.session-ledger-mirror.lock'));
      } catch {
        return false;
      }
    }, 'the mirror');
    expect(read(dir, 'MEMORY.md')).toBe('Project uses npm workspaces\n§\nCI runs on\nGitHub Actions');
    expect(read(dir, 'USER.md')).toBe('Name is Ada');
    // no temp file left; the lock (a directory) comes and goes with each apply of the fan-out, which may still be running
    expect(readdirSync(dir).filter((name) => name !== '.session-ledger-mirror.lock').sort()).toEqual([MAPPING_FILE, 'MEMORY.md', 'USER.md']);
    const mapping = JSON.parse(read(dir, MAPPING_FILE));
    expect(mapping.position).toBe(last.position.toString());
    expect(mapping.entries.map((entry: { id: string }) => entry.id)).toEqual((await memory.list()).map((entry) => entry.id));

    const rebuilt = temp.make();
    await createMarkdownMirror({ dir: rebuilt }).rebuild(store);
    for (const file of ['MEMORY.md', 'USER.md', MAPPING_FILE]) expect(read(rebuilt, file)).toBe(read(dir, file));
  });

  it('mirrors by entry id, never by re-matching the selector', async () => {
    const dir = temp.make();
    const mirror = createMarkdownMirror({ dir });
    const mutation = (over: Partial<MemoryMutation>): MemoryMutation => ({
      op: 'add',
      profile: 'default',
      entryId: 'id-1',
      target: 'memory',
      previousContent: null,
      content: null,
      selector: null,
      eventId: newId(),
      stream: 'memory-default',
      revision: 0n,
      position: 1n,
      causation: {},
      ...over,
    });
    await mirror.apply(mutation({ entryId: 'tea', content: 'Likes green tea', position: 1n }));
    await mirror.apply(mutation({ entryId: 'tea2', content: 'Likes tea', position: 2n }));
    // The store selected "Likes tea" (exact match); a substring re-match would have hit the first entry.
    await mirror.apply(
      mutation({ op: 'replace', entryId: 'tea2', previousContent: 'Likes tea', content: 'Likes coffee', selector: 'tea', position: 3n }),
    );
    expect(read(dir, 'MEMORY.md')).toBe('Likes green tea\n§\nLikes coffee');
    // Redelivery (at least once) changes nothing.
    await mirror.apply(mutation({ op: 'remove', entryId: 'tea', previousContent: 'Likes green tea', selector: 'green', position: 4n }));
    await mirror.apply(mutation({ op: 'remove', entryId: 'tea', previousContent: 'Likes green tea', selector: 'green', position: 4n }));
    await mirror.apply(mutation({ entryId: 'tea', content: 'Likes green tea', position: 1n }));
    expect(read(dir, 'MEMORY.md')).toBe('Likes coffee');
    // An entry the mirror never saw is refused, not guessed.
    await expect(mirror.apply(mutation({ op: 'replace', entryId: 'unknown', previousContent: 'x', content: 'y', position: 5n }))).rejects.toThrow(
      /mirrored memory entry/,
    );
    // Other profiles are not this mirror's business.
    await mirror.apply(mutation({ profile: 'work', entryId: 'w', content: 'Work note', position: 6n }));
    expect(read(dir, 'MEMORY.md')).toBe('Likes coffee');
  });

  it('leaves a skipped legacy replace unmirrored, and a rebuild repairs the drift', async () => {
    const store = createMemoryStore();
    const dir = temp.make();
    const mirror = createMarkdownMirror({ dir });
    const fanOut = startMemoryFanOut(store, [mirror], quiet);
    running.push(fanOut);
    // Filled (the empty profile) before the writes, so the legacy replace is delivered, not read by the fill.
    await fanOut.caughtUp;
    const memory = createMemoryLedger(store);
    const added = await memory.add('memory', 'Imported note');
    await createLedger(store).append(memoryStream('default'), [
      { id: newId(), type: 'memory.entry_replaced', data: { entryId: added.receipts[0]!.entryId, target: 'memory', content: 'Edited' } },
    ]);
    await until(async () => (await readProviderStatus(store, 'markdown-mirror').catch(() => null))?.skipped === 1, 'the skip');
    expect(read(dir, 'MEMORY.md')).toBe('Imported note');
    await mirror.rebuild(store);
    expect(read(dir, 'MEMORY.md')).toBe('Edited');
  });

  it('parks on an unreadable mapping instead of overwriting the files', async () => {
    const store = createMemoryStore();
    const dir = temp.make();
    writeFileSync(join(dir, MAPPING_FILE), '{ not json');
    writeFileSync(join(dir, 'MEMORY.md'), 'hand written');
    running.push(startMemoryFanOut(store, [createMarkdownMirror({ dir })], quiet));
    await createMemoryLedger(store).add('memory', 'New');
    await until(async () => (await readProviderStatus(store, 'markdown-mirror').catch(() => null))?.state === 'parked', 'parked');
    expect((await readProviderStatus(store, 'markdown-mirror')).reason).toMatch(/rebuild the mirror/);
    expect(read(dir, 'MEMORY.md')).toBe('hand written');
  });

  it('a directory where no lock can be created fails at once, naming the cause, never "locked by another process"', async () => {
    // /proc/1 exists but nothing can be made in it (ENOENT): before, every lock error was retried for ~30 s.
    const store = createMemoryStore();
    await createMemoryLedger(store).add('memory', 'x');
    const failure = await createMarkdownMirror({ dir: '/proc/1' }).rebuild(store).then(() => null, (error: unknown) => error);
    expect(failure).toMatchObject({ type: 'store_unavailable', details: { cause: 'ENOENT' } });
    expect((failure as Error).message).toMatch(/^The mirror \/proc\/1 cannot be locked: /);
  });

  it('a new directory under a name whose checkpoint is past every mutation gets the whole profile first, then follows', async () => {
    const store = createMemoryStore();
    const first = temp.make();
    const fanOut = startMemoryFanOut(store, [createMarkdownMirror({ dir: first })], quiet);
    const memory = createMemoryLedger(store);
    await memory.add('memory', 'Project uses pnpm');
    await memory.add('user', 'Name is Ada');
    await fanOut.caughtUp;
    await until(() => says(first, 'USER.md', 'Name is Ada'), 'the first mirror');
    await fanOut.stop();

    // The same provider name (the shared checkpoint is past both adds), another directory: as `providers run --mirror NEWDIR --once` does.
    const second = join(temp.make(), 'new');
    const again = startMemoryFanOut(store, [createMarkdownMirror({ dir: second })], quiet);
    running.push(again);
    await again.caughtUp;
    expect([read(second, 'MEMORY.md'), read(second, 'USER.md')]).toEqual(['Project uses pnpm', 'Name is Ada']);
    await memory.add('memory', 'CI runs on GitHub Actions');
    await until(() => read(second, 'MEMORY.md').endsWith('GitHub Actions'), 'the next mutation');
  });

  it("a directory holding Hermes' own entries, never imported, is not overwritten: the mirror parks and says to import or rebuild", async () => {
    const store = createMemoryStore();
    const dir = temp.make();
    writeFileSync(join(dir, 'MEMORY.md'), 'hermes entry\n§\nother');
    const warnings: string[] = [];
    const fanOut = startMemoryFanOut(store, [createMarkdownMirror({ dir })], { ...quiet, onWarning: (warning) => void warnings.push(warning.message) });
    running.push(fanOut);
    await fanOut.caughtUp;
    // Parked at start, before any mutation: its status says why at once (before session 19 it read `active` until the first mutation).
    const parked = await readProviderStatus(store, 'markdown-mirror');
    expect([parked.state, parked.failed]).toEqual(['parked', undefined]);
    expect(parked.reason).toMatch(/could not prepare: .*did not write .*memory mirror adopt.*memory mirror rebuild/);
    expect(warnings.some((message) => /could not prepare: .*did not write/.test(message))).toBe(true);
    await createMemoryLedger(store).add('memory', 'one');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(read(dir, 'MEMORY.md')).toBe('hermes entry\n§\nother');
    expect(readdirSync(dir)).not.toContain(MAPPING_FILE);
    expect((await readProviderStatus(store, 'markdown-mirror')).state).toBe('parked');
  });

  it("parked over Hermes' own entries, then imported and resumed: the mirror adopts the files at its next mutation and follows", async () => {
    const { store, dir } = await parkedOver('MEMORY.md', 'hermes entry\n§\nother');
    const memory = createMemoryLedger(store);
    // What `import hermes --memories DIR` stores: the same entries, in order.
    await memory.apply([
      { op: 'add', target: 'memory', content: 'hermes entry' },
      { op: 'add', target: 'memory', content: 'other' },
    ]);
    expect(await resumeProviders(store, 'markdown-mirror')).toEqual(['markdown-mirror']);
    await until(() => existsSync(join(dir, MAPPING_FILE)), 'adopted');
    await memory.add('user', 'Name is Ada');
    await until(() => says(dir, 'USER.md', 'Name is Ada'), 'the next mutation');
    expect(read(dir, 'MEMORY.md')).toBe('hermes entry\n§\nother');
    expect((await readProviderStatus(store, 'markdown-mirror')).state).toBe('active');
  });

  it("parked over Hermes' own entries, then resumed with nothing done: it parks again at the next mutation, naming it, and the files stay", async () => {
    const { store, dir } = await parkedOver('USER.md', 'hermes user');
    await resumeProviders(store, 'markdown-mirror');
    await createMemoryLedger(store).add('user', 'Name is Ada');
    await until(async () => (await readProviderStatus(store, 'markdown-mirror')).failed !== undefined, 'parked on the mutation');
    expect((await readProviderStatus(store, 'markdown-mirror')).state).toBe('parked');
    expect(read(dir, 'USER.md')).toBe('hermes user');
  });

  it('a directory whose Hermes files say what the profile holds (imported) is adopted at start and followed', async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    await memory.add('memory', 'hermes entry');
    await memory.add('memory', 'other');
    const dir = temp.make();
    writeFileSync(join(dir, 'MEMORY.md'), 'hermes entry\n§\nother');
    const fanOut = startMemoryFanOut(store, [createMarkdownMirror({ dir })], quiet);
    running.push(fanOut);
    await fanOut.caughtUp;
    expect(readdirSync(dir)).toContain(MAPPING_FILE);
    await memory.add('user', 'Name is Ada');
    await until(() => says(dir, 'USER.md', 'Name is Ada'), 'the next mutation');
    expect(read(dir, 'MEMORY.md')).toBe('hermes entry\n§\nother');
  });

  // Outside test, session 26: Hermes' memory tool added an entry to the mirrored MEMORY.md ("Entry added."), and the
  // mirror's next write of that file replaced it with the mapping's entries: gone from the file, in no event, status active.
  it("a mirrored file Hermes changed since the mirror wrote it is not overwritten: the mirror parks, and import, rebuild and resume recover", async () => {
    const store = createMemoryStore();
    const dir = temp.make();
    running.push(startMemoryFanOut(store, [createMarkdownMirror({ dir })], quiet));
    const memory = createMemoryLedger(store);
    const first = await memory.add('memory', 'Uses the blue notebook');
    await until(() => says(dir, 'MEMORY.md', 'Uses the blue notebook') && JSON.parse(read(dir, MAPPING_FILE)).position === first.position.toString(), 'the first add');
    // What Hermes' MemoryStore.add writes: the entries it read, then its own, joined by the delimiter.
    writeFileSync(join(dir, 'MEMORY.md'), 'Uses the blue notebook\n§\nHermes wrote this');
    await memory.add('memory', 'ledger second');
    await until(async () => (await readProviderStatus(store, 'markdown-mirror').catch(() => null))?.state === 'parked', 'parked');
    expect((await readProviderStatus(store, 'markdown-mirror')).reason).toMatch(/MEMORY\.md changed since the mirror wrote it.*memory mirror adopt.*memory mirror rebuild/);
    expect(read(dir, 'MEMORY.md')).toBe('Uses the blue notebook\n§\nHermes wrote this');
    // The way on: import Hermes' entry (what `import hermes --memories DIR` stores), rebuild, resume.
    await memory.add('memory', 'Hermes wrote this');
    await createMarkdownMirror({ dir }).rebuild(store);
    expect(await resumeProviders(store, 'markdown-mirror')).toEqual(['markdown-mirror']);
    await memory.add('user', 'Name is Ada');
    await until(() => says(dir, 'USER.md', 'Name is Ada'), 'the next mutation');
    expect(read(dir, 'MEMORY.md')).toBe('Uses the blue notebook\n§\nledger second\n§\nHermes wrote this');
    expect((await readProviderStatus(store, 'markdown-mirror')).state).toBe('active');
  });

  // Outside test, session 26: `providers run --mirror pW --mirror-profile work` ran under the same provider name and took
  // the default mirror's delivery of m2 (ignored there: another profile); the default directory never got m2, status active.
  it('a mapped directory behind its profile (another mirror of the name took its deliveries) catches up at its next start', async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    await memory.add('memory', 'm1');
    const home = temp.make();
    const first = startMemoryFanOut(store, [createMarkdownMirror({ dir: home })], quiet);
    await first.caughtUp;
    await until(() => says(home, 'MEMORY.md', 'm1'), 'the default mirror');
    await first.stop();
    await memory.add('memory', 'm2');
    await memory.add('memory', 'w1', { profile: 'work' });
    const other = temp.make();
    const workRun = startMemoryFanOut(store, [createMarkdownMirror({ dir: other, profile: 'work' })], quiet);
    await workRun.caughtUp;
    await until(() => says(other, 'MEMORY.md', 'w1'), 'the work mirror');
    await workRun.stop();

    const again = startMemoryFanOut(store, [createMarkdownMirror({ dir: home })], quiet);
    running.push(again);
    await again.caughtUp;
    expect(read(home, 'MEMORY.md')).toBe('m1\n§\nm2');
    expect((await readProviderStatus(store, 'markdown-mirror')).state).toBe('active');
  });

  it('a mirrored file that already says what a redelivered mutation leaves (a crash before the mapping) is taken as written', async () => {
    const dir = temp.make();
    const mirror = createMarkdownMirror({ dir });
    const add = (entryId: string, content: string, position: bigint): MemoryMutation => ({
      op: 'add', profile: 'default', entryId, target: 'memory', previousContent: null, content, selector: null,
      eventId: newId(), stream: 'memory-default', revision: position - 1n, position, causation: {},
    });
    await mirror.apply(add('a', 'first', 1n));
    // The files were written, the process died before the mapping: the file says what the redelivery leaves.
    writeFileSync(join(dir, 'MEMORY.md'), 'first\n§\nsecond');
    await mirror.apply(add('b', 'second', 2n));
    expect(JSON.parse(read(dir, MAPPING_FILE)).position).toBe('2');
    // A file deleted by hand loses nothing the stream does not hold: it is written again.
    rmSync(join(dir, 'MEMORY.md'));
    await mirror.apply(add('c', 'third', 3n));
    expect(read(dir, 'MEMORY.md')).toBe('first\n§\nsecond\n§\nthird');
    // Anything else is a change the mirror did not make: refused, the file left as it is.
    writeFileSync(join(dir, 'MEMORY.md'), 'first\n§\nsecond');
    await expect(mirror.apply(add('d', 'fourth', 4n))).rejects.toThrow(/MEMORY\.md changed since the mirror wrote it/);
    expect(read(dir, 'MEMORY.md')).toBe('first\n§\nsecond');
    expect(JSON.parse(read(dir, MAPPING_FILE)).position).toBe('3');
  });

  it('a directory whose Markdown files hold no entry (empty files, no mapping) is filled at start like a new one', async () => {
    const store = createMemoryStore();
    await createMemoryLedger(store).add('memory', 'Project uses pnpm');
    const dir = temp.make();
    writeFileSync(join(dir, 'MEMORY.md'), '');
    const fanOut = startMemoryFanOut(store, [createMarkdownMirror({ dir })], quiet);
    running.push(fanOut);
    await fanOut.caughtUp;
    expect([read(dir, 'MEMORY.md'), readdirSync(dir)]).toEqual(['Project uses pnpm', expect.arrayContaining([MAPPING_FILE, 'USER.md'])]);
  });

  it.each([
    ['emptied', (dir: string) => readdirSync(dir).forEach((file) => rmSync(join(dir, file), { recursive: true, force: true }))],
    ['removed', (dir: string) => rmSync(dir, { recursive: true, force: true })],
  ])('a directory %s while the mirror follows is filled whole at the next mutation, not written from that mutation alone (helper-94 F2)', async (_how, lose) => {
    const store = createMemoryStore();
    const dir = temp.make();
    const fanOut = startMemoryFanOut(store, [createMarkdownMirror({ dir })], quiet);
    running.push(fanOut);
    // Prepared (its fill at start done) before the first write, so every later write comes as a delivery.
    await fanOut.caughtUp;
    const memory = createMemoryLedger(store);
    await memory.apply([
      { op: 'add', target: 'memory', content: 'alpha' },
      { op: 'add', target: 'user', content: 'Name is Ada' },
    ]);
    // Deliveries come in commit order: the last one mapped and unlocked, the fan-out is done with the directory.
    const { position } = await memory.add('memory', 'beta');
    await until(() => mappedAt(dir) === position.toString() && !existsSync(join(dir, '.session-ledger-mirror.lock')));
    lose(dir);
    await memory.add('memory', 'delta');
    // Before, MEMORY.md said "delta" alone, USER.md stayed absent and the provider read active.
    await until(() => says(dir, 'MEMORY.md', 'alpha\n§\nbeta\n§\ndelta') && says(dir, 'USER.md', 'Name is Ada'));
    expect((await readProviderStatus(store, 'markdown-mirror')).state).toBe('active');
    await memory.replace('memory', 'alpha', 'alpha two');
    await until(() => says(dir, 'MEMORY.md', 'alpha two\n§\nbeta\n§\ndelta'));
  });

  it('a mirror applied directly (no fan-out, no store) to a directory that lost its mapping refuses, naming rebuild', async () => {
    const dir = temp.make();
    const mirror = createMarkdownMirror({ dir });
    const add = (entryId: string, position: bigint): MemoryMutation => ({
      op: 'add', profile: 'default', entryId, target: 'memory', previousContent: null, content: entryId, selector: null,
      eventId: newId(), stream: memoryStream('default'), revision: position, position, causation: {},
    });
    await mirror.apply(add('first', 0n));
    expect(read(dir, 'MEMORY.md')).toBe('first');
    rmSync(join(dir, 'MEMORY.md'));
    rmSync(join(dir, MAPPING_FILE));
    await expect(mirror.apply(add('second', 1n))).rejects.toThrow(/lost the mirror's mapping.*rebuild/);
    expect(existsSync(join(dir, 'MEMORY.md'))).toBe(false);
  });
});

/** Outside test, session 34 (helper-94 F3, F6, F7): the mirror's files compared as Hermes reads them, and a file deleted by hand. */
describe('Markdown mirror: files as Hermes reads them', () => {
  /** A fan-out prepared before the first write, so every write comes as a delivery. */
  const following = async (dir: string, store = createMemoryStore()) => {
    const fanOut = startMemoryFanOut(store, [createMarkdownMirror({ dir })], quiet);
    running.push(fanOut);
    await fanOut.caughtUp;
    return { store, fanOut, memory: createMemoryLedger(store) };
  };
  const state = async (store: ReturnType<typeof createMemoryStore>) => (await readProviderStatus(store, 'markdown-mirror')).state;

  it("an editor's final newline in a mirrored file is no change: the next mutation is mirrored, the mirror stays active (F7)", async () => {
    const dir = temp.make();
    const { store, memory } = await following(dir);
    await memory.add('memory', 'alpha');
    await memory.add('memory', 'beta');
    await until(() => says(dir, 'MEMORY.md', 'alpha\n§\nbeta'));
    writeFileSync(join(dir, 'MEMORY.md'), 'alpha\n§\nbeta\n');
    await memory.add('memory', 'gamma');
    // Before, it parked: "MEMORY.md changed since the mirror wrote it".
    await until(() => says(dir, 'MEMORY.md', 'alpha\n§\nbeta\n§\ngamma'));
    expect(await state(store)).toBe('active');
  });

  it("Hermes' files ending with a newline, imported, are adopted at start (F7: the advised import looped)", async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    await memory.apply([
      { op: 'add', target: 'memory', content: 'Hermes fact one' },
      { op: 'add', target: 'memory', content: 'Hermes fact two' },
      { op: 'add', target: 'user', content: 'Name is Ada' },
    ]);
    const dir = temp.make();
    writeFileSync(join(dir, 'MEMORY.md'), 'Hermes fact one\n§\nHermes fact two\n');
    writeFileSync(join(dir, 'USER.md'), 'Name is Ada\n');
    await following(dir, store);
    expect([await state(store), readdirSync(dir)]).toEqual(['active', expect.arrayContaining([MAPPING_FILE])]);
  });

  it('an entry led by U+FEFF, first in its file, is the mirror\'s own at the next write of that file (F6: it parked every time)', async () => {
    const dir = temp.make();
    const { store, memory } = await following(dir);
    await memory.add('memory', '\ufeffstarts with a BOM');
    await until(() => says(dir, 'MEMORY.md', '\ufeffstarts with a BOM'));
    await memory.add('memory', 'second entry');
    await until(() => says(dir, 'MEMORY.md', '\ufeffstarts with a BOM\n§\nsecond entry'));
    expect(await state(store)).toBe('active');
  });

  it('a file deleted by hand is written again with the next batch of the other target, and at the next start (F3)', async () => {
    const dir = temp.make();
    const { store, memory, fanOut } = await following(dir);
    await memory.add('user', 'Name is Ada');
    await memory.add('memory', 'alpha');
    await until(() => says(dir, 'USER.md', 'Name is Ada') && says(dir, 'MEMORY.md', 'alpha'));
    rmSync(join(dir, 'USER.md'));
    await memory.add('memory', 'beta');
    // Before, USER.md stayed absent until a mutation of the user target.
    await until(() => says(dir, 'MEMORY.md', 'alpha\n§\nbeta') && says(dir, 'USER.md', 'Name is Ada'));
    await fanOut.stop();
    rmSync(join(dir, 'MEMORY.md'));
    await following(dir, store);
    expect([read(dir, 'MEMORY.md'), read(dir, 'USER.md'), await state(store)]).toEqual(['alpha\n§\nbeta', 'Name is Ada', 'active']);
  });

  it("keeps a mirrored file's mode (Hermes writes its memory 0600), and writes a new one owner-only (F17: replaced world-readable)", async () => {
    const dir = temp.make();
    writeFileSync(join(dir, 'MEMORY.md'), '');
    chmodSync(join(dir, 'MEMORY.md'), 0o600);
    const { memory } = await following(dir);
    await memory.add('memory', 'private');
    await memory.add('user', 'Name is Ada');
    await until(() => says(dir, 'MEMORY.md', 'private') && says(dir, 'USER.md', 'Name is Ada'));
    expect([MAPPING_FILE, 'MEMORY.md', 'USER.md'].map((file) => statSync(join(dir, file)).mode & 0o777)).toEqual([0o600, 0o600, 0o600]);
    chmodSync(join(dir, 'MEMORY.md'), 0o640);
    await memory.add('memory', 'second');
    await until(() => says(dir, 'MEMORY.md', 'private\n§\nsecond'));
    expect(statSync(join(dir, 'MEMORY.md')).mode & 0o777).toBe(0o640);
  });

  it('refuses a profile name no profile can have, a rebuild of a profile never written, and one over a directory mapped to another (F5)', async () => {
    const dir = temp.make();
    for (const profile of ['work ', 'my work', '', '../work', 'work\u001b[2J']) {
      expect(() => createMarkdownMirror({ dir, profile })).toThrow(/Invalid profile name/);
    }
    const store = createMemoryStore();
    await createMemoryLedger(store).add('memory', 'kept');
    const mirror = createMarkdownMirror({ dir });
    await mirror.rebuild(store);
    await expect(createMarkdownMirror({ dir, profile: 'wrok' }).rebuild(store)).rejects.toMatchObject({ type: 'not_found' });
    await createMemoryLedger(store).add('memory', 'other', { profile: 'work' });
    await expect(createMarkdownMirror({ dir, profile: 'work' }).rebuild(store)).rejects.toThrow(/mirrors profile default, not work/);
    // Before, each emptied or swapped what Hermes reads, exit 0.
    expect(read(dir, 'MEMORY.md')).toBe('kept');
  });

  it('a mapping written from another store (a migrate, a restored backup) is filled again from this one, not followed (F9: mutations dropped as applied, active)', async () => {
    const dir = temp.make();
    const before = createMemoryStore();
    const old = createMemoryLedger(before);
    for (let n = 0; n < 5; n += 1) await old.add('memory', `other ${n}`, { profile: 'other' });
    await old.add('memory', 'alpha');
    await old.add('memory', 'beta');
    const first = await following(dir, before);
    await until(() => says(dir, 'MEMORY.md', 'alpha\n§\nbeta'));
    await first.fanOut.stop();
    // The same profile in another store, at lower positions (the migration target dropped deleted history).
    const after = createMemoryStore();
    const moved = createMemoryLedger(after);
    await moved.add('memory', 'alpha');
    await moved.add('memory', 'beta');
    await moved.add('memory', 'gamma (after migrate)');
    const { memory, store } = await following(dir, after);
    expect(read(dir, 'MEMORY.md')).toBe('alpha\n§\nbeta\n§\ngamma (after migrate)');
    await memory.replace('memory', 'alpha', 'alpha2');
    await until(() => says(dir, 'MEMORY.md', 'alpha2\n§\nbeta\n§\ngamma (after migrate)'));
    expect(await state(store)).toBe('active');
  });

  it("Hermes' files imported, then one ledger write before the mirror's first start: adopted, since the profile holds every entry they do (F7: parked for good, the advised import adding nothing)", async () => {
    const store = createMemoryStore();
    const memory = createMemoryLedger(store);
    await memory.apply([
      { op: 'add', target: 'memory', content: 'Hermes fact one' },
      { op: 'add', target: 'memory', content: 'Hermes fact two' },
    ]);
    await memory.add('memory', 'written in the ledger before the mirror started');
    const dir = temp.make();
    writeFileSync(join(dir, 'MEMORY.md'), 'Hermes fact two\n§\nHermes fact one\n');
    await following(dir, store);
    expect([await state(store), read(dir, 'MEMORY.md')]).toEqual(['active', 'Hermes fact one\n§\nHermes fact two\n§\nwritten in the ledger before the mirror started']);
  });

  it("a mirrored directory whose mapping was deleted by hand, its files the profile's, takes the next batch (F3 side note: parked as Hermes' own)", async () => {
    const dir = temp.make();
    const { store, memory } = await following(dir);
    await memory.add('memory', 'alpha');
    const { position } = await memory.add('user', 'Name is Ada');
    await until(() => mappedAt(dir) === position.toString() && !existsSync(join(dir, '.session-ledger-mirror.lock')));
    rmSync(join(dir, MAPPING_FILE));
    await memory.add('memory', 'beta');
    await until(() => says(dir, 'MEMORY.md', 'alpha\n§\nbeta'));
    expect([await state(store), read(dir, 'USER.md')]).toEqual(['active', 'Name is Ada']);
  });

  it('files holding an entry the profile does not hold still park the mirror at start, and are left as they are', async () => {
    const store = createMemoryStore();
    await createMemoryLedger(store).add('memory', 'alpha');
    const dir = temp.make();
    writeFileSync(join(dir, 'MEMORY.md'), 'alpha\n§\nHermes only');
    await following(dir, store);
    expect(await state(store)).toBe('parked');
    expect(read(dir, 'MEMORY.md')).toBe('alpha\n§\nHermes only');
  });
});
