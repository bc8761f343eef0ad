import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleTempFiles, writeDurably } from '@session-ledger/retention';
import { scratchDir } from './helpers.js';

const UUID = '0b5a3c8e-1d2f-4e6a-9b7c-8d9e0f1a2b3c';

/** The pid of a process that has exited. */
const deadPid = (): number => {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
};

describe('export temp files', () => {
  it('the next export to the same file removes the temp files a killed run left (dead writer, or none named); a live writer\'s and other files\' stay', async () => {
    const dir = scratchDir();
    const dead = `.out.md.${deadPid()}.${UUID}.tmp`;
    const legacy = `.out.md.${UUID}.tmp`;
    const living = `.out.md.${process.ppid}.${UUID}.tmp`;
    const other = `.other.md.${deadPid()}.${UUID}.tmp`;
    for (const name of [dead, legacy, living, other]) writeFileSync(join(dir, name), 'a whole conversation');

    const file = await writeDurably(join(dir, 'out.md'), Buffer.from('the export'));

    expect(readFileSync(file, 'utf8')).toBe('the export');
    expect(readdirSync(dir).sort()).toEqual([living, other, 'out.md'].sort());
    expect(await removeStaleTempFiles(dir, 'other.md')).toEqual([other]);
  });

  it('a failed export leaves no temp file (the target exists: duplicate)', async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, 'out.md'), 'kept');
    const listeners = process.listenerCount('SIGTERM');

    await expect(writeDurably(join(dir, 'out.md'), Buffer.from('new'))).rejects.toMatchObject({ type: 'duplicate' });

    expect(readdirSync(dir)).toEqual(['out.md']);
    expect(existsSync(join(dir, 'out.md'))).toBe(true);
    expect(process.listenerCount('SIGTERM')).toBe(listeners); // the signal guard is gone with the temp file
  });
});
