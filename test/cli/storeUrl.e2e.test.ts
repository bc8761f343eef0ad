import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';

/**
 * `--store 'sqlite:FILE?durabilty=full'` (a typo) wrote at the default durability, normal, without a
 * word (outside test, session 23): an operator who asked for an fsync of every commit did not get it.
 */
describe('a sqlite: store URL', () => {
  it.each([
    ['?durabilty=full', /Unknown sqlite: store parameter "durabilty"/],
    ['?foo=1', /Unknown sqlite: store parameter "foo"/],
    ['?durability=full&durability=normal', /gives durability 2 times/],
    ['?durability=full&synchronous=full', /gives durability 2 times/],
    ['?durability=FULL', /Unknown durability: FULL/],
  ])('%s is refused (exit 2, one line) before the file is made', (query, message) => {
    const file = join(tempDir(), 'ledger.sqlite');
    const result = runCli(['--store', `sqlite:${file}${query}`, 'sessions', 'start']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
    expect(existsSync(file)).toBe(false);
  });

  it('takes durability=full and synchronous=normal', () => {
    const dir = tempDir();
    for (const query of ['?durability=full', '?synchronous=normal', '']) expect(runCli(['--store', `sqlite:${join(dir, 'ledger.sqlite')}${query}`, 'sessions', 'start']).code).toBe(0);
  });
});
