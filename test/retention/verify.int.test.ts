import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex, type EventStore } from '@session-ledger/core';
import { loadConversation } from '@session-ledger/sessions';
import { AUDIT_STREAM, exportAndDelete, exportSession, type ExportFormat } from '@session-ledger/retention';
import { buildConversation, COVERED, scratchDir, STORES, writerOn } from './helpers.js';

/**
 * The file-system seam: once the export is published at its path (link, or rename where a file system
 * has no hard links), `corrupt` changes it on disk, as a bad disk or another process would, before
 * the read-back.
 */
const disk = vi.hoisted(() => {
  const state: { corrupt: ((path: string) => void) | null } = { corrupt: null };
  return state;
});
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const thenCorrupt =
    (publish: (from: string, to: string) => Promise<void>) =>
    async (from: string, to: string): Promise<void> => {
      await publish(from, to);
      disk.corrupt?.(to);
    };
  return { ...real, link: thenCorrupt(real.link), rename: thenCorrupt(real.rename) };
});
afterEach(() => {
  disk.corrupt = null;
});

/** Replaces `from` by `to` (same length: a flipped character, not a truncation) everywhere in the file. */
const flip = (from: string, to: string) => (path: string) => {
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.split(from).join(to));
};

const nothingDeleted = async (store: EventStore) => {
  for (const stream of COVERED) expect((await store.readStream(stream)).length).toBeGreaterThan(0);
  await expect(store.readStream(AUDIT_STREAM)).rejects.toMatchObject({ type: 'stream_not_found' });
  expect((await loadConversation(store, 'root')).messages.length).toBeGreaterThan(0);
};

describe.each(STORES)('an export that does not read back as written (%s)', (_name, open) => {
  const cases: Array<[ExportFormat, string]> = [
    ['markdown', 'delegated task text'],
    ['jsonl', 'delegated task text'],
  ];
  for (const [format, content] of cases) {
    it(`given the ${format} file's content changes on disk after it is written, then export --delete-after-verified is verification_failed and deletes nothing`, async () => {
      const { context, store, ledger, now } = writerOn(open());
      await buildConversation(context);
      const out = join(scratchDir(), `export.${format}`);
      disk.corrupt = flip(content, content.toUpperCase());

      await expect(exportAndDelete(ledger, 'root', { format, out, now: now() })).rejects.toMatchObject({
        type: 'verification_failed',
        message: expect.stringContaining(`The export at ${out} does not read back as written: its bytes differ from the rendered export`),
        details: { what: `export ${out}: its bytes differ from the rendered export` },
      });

      await nothingDeleted(store);
      expect(existsSync(out)).toBe(true);
    });

    it(`given the ${format} file's manifest digest changes on disk after it is written, then export --delete-after-verified is verification_failed and deletes nothing`, async () => {
      const { context, store, ledger, now } = writerOn(open());
      await buildConversation(context);
      const { digest } = await exportSession(store, 'root', { format, now: now() });
      const forged = `${digest.slice(0, -1)}${digest.endsWith('0') ? '1' : '0'}`;
      disk.corrupt = flip(digest, forged);

      await expect(exportAndDelete(ledger, 'root', { format, out: join(scratchDir(), `export.${format}`), now: now() })).rejects.toMatchObject({
        type: 'verification_failed',
      });

      await nothingDeleted(store);
    });
  }

  it('given the file changes on disk after it is written, then a plain export is verification_failed', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    disk.corrupt = flip('delegated task text', 'delegated task TEXT');

    await expect(exportSession(store, 'root', { format: 'markdown', out: join(scratchDir(), 'export.md'), now: now() })).rejects.toMatchObject({
      type: 'verification_failed',
    });
  });

  it('given the file reads back as written, then the same export deletes (the seam alone changes nothing)', async () => {
    const { context, store, ledger, now } = writerOn(open());
    await buildConversation(context);

    const out = join(scratchDir(), 'export.md');
    const result = await exportAndDelete(ledger, 'root', { format: 'markdown', out, now: now() });

    expect([...result.deleted].sort()).toEqual([...COVERED].sort());
    expect(result.fileSha256).toBe(`sha256:${sha256Hex(readFileSync(out))}`);
    await expect(store.readStream('session-root')).rejects.toMatchObject({ type: 'stream_deleted' });
  });
});
