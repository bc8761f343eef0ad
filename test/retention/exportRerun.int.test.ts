import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLedger, readStreamState } from '@session-ledger/core';
import { AUDIT_STREAM, exportAndDelete, pendingIntents } from '@session-ledger/retention';
import { appendMessage } from '@session-ledger/sessions';
import { buildConversation, COVERED, scratchDir, STORES, wrapStore, writerOn } from './helpers.js';

const ONCE = { attempts: 1, baseDelayMs: 1 };

/**
 * "Run the same command again" after `export --delete-after-verified` was killed: it answered exit 1
 * when the kill came after the file was written and before the intent ("Export file exists"), and
 * after the outcome record ("is deleted") (outside test, session 24).
 */
describe.each(STORES)('export --delete-after-verified run again (%s)', (_name, open) => {
  const killedBeforeIntent = async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'root.md');
    const dying = wrapStore(store, {
      appendToStream: async (stream, events, options) => {
        if (stream === AUDIT_STREAM) throw new Error('killed');
        return store.appendToStream(stream, events, options);
      },
    });
    await expect(exportAndDelete(createLedger(dying), 'root', { format: 'markdown', out, now: now(), retry: ONCE })).rejects.toThrow('killed');
    return { context, store, now, out, bytes: readFileSync(out) };
  };
  const tombstoned = async (store: Parameters<typeof readStreamState>[0]) => {
    const out: string[] = [];
    for (const stream of COVERED) if ((await readStreamState(store, stream)).state === 'tombstoned') out.push(stream);
    return out;
  };

  it('killed after writing its file, before its intent: the same command takes that file (unchanged) and deletes', async () => {
    const { store, now, out, bytes } = await killedBeforeIntent();
    expect(await pendingIntents(store)).toEqual([]);

    const result = await exportAndDelete(createLedger(store), 'root', { format: 'markdown', out, now: now() });

    expect(result.deleted.sort()).toEqual([...COVERED].sort());
    expect(readFileSync(out).equals(bytes)).toBe(true);
    expect(result.fileSha256).toMatch(/^sha256:/);
  });

  it('the conversation written to since: that file is not this export; refused as before, nothing deleted, the file kept', async () => {
    const { context, store, now, out, bytes } = await killedBeforeIntent();
    await appendMessage(context, 'root-2', { role: 'user', content: 'written after the kill' });

    await expect(exportAndDelete(createLedger(store), 'root', { format: 'markdown', out, now: now() })).rejects.toMatchObject({ type: 'duplicate' });
    expect(await tombstoned(store)).toEqual([]);
    expect(readFileSync(out).equals(bytes)).toBe(true);
  });

  it('run again after it completed: reports the export from its file, deletes nothing more (exit 0); another --out is still session_deleted', async () => {
    const { context, store, now } = writerOn(open());
    await buildConversation(context);
    const out = join(scratchDir(), 'root.jsonl');
    const first = await exportAndDelete(createLedger(store), 'root', { format: 'jsonl', out, now: now() });

    const again = await exportAndDelete(createLedger(store), 'root-2', { format: 'jsonl', out, now: now() });

    expect(again).toMatchObject({ file: first.file, digest: first.digest, fileSha256: first.fileSha256, deleted: [] });
    await expect(exportAndDelete(createLedger(store), 'root', { format: 'jsonl', out: join(scratchDir(), 'other.jsonl'), now: now() })).rejects.toMatchObject({
      type: 'session_deleted',
    });
    // the file changed since: not taken as proof of anything
    writeFileSync(out, `${readFileSync(out, 'utf8')}\n`);
    await expect(exportAndDelete(createLedger(store), 'root', { format: 'jsonl', out, now: now() })).rejects.toMatchObject({ type: 'session_deleted' });
  });
});
