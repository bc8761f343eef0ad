import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { deleteSessions } from '@session-ledger/retention';
import { appendMessage, beginTurn, compressSession, startSession } from '@session-ledger/sessions';
import { allRows, catalogStore } from './support.js';

/** The files of the ledger (and its WAL) that still hold `text`. */
const holding = (file: string, text: string) =>
  [file, `${file}-wal`].filter((path) => existsSync(path) && readFileSync(path).includes(Buffer.from(text)));

describe('deleted means gone from the read models', () => {
  it('after sessions are deleted (deleteSessions), neither the SQLite file nor its WAL holds the title, source, model or turn owner the catalog kept', async () => {
    const { store, readModels, file } = catalogStore();
    const context = { ledger: createLedger(store) };
    const secrets = { title: 'Quokka-Zanzibar title 7731', source: 'src-Quokka-8842', model: 'model-Quokka-9953', owner: 'owner-Quokka-1064' };
    await startSession(context, { id: 'keep', title: 'an ordinary title' });
    await startSession(context, { id: 'gone', title: secrets.title, source: secrets.source, model: secrets.model });
    // the catalog row is rewritten many times before the deletion: every old copy must go too
    for (let n = 0; n < 30; n += 1) await appendMessage(context, 'gone', { role: 'user', content: `m${n}` });
    await beginTurn(context, 'gone', { owner: secrets.owner, ttlMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await compressSession(context, 'gone', { summary: 'S', childId: 'gone2' });
    expect(Object.values(secrets).filter((text) => holding(file, text).length > 0)).toEqual(Object.values(secrets));

    const result = await deleteSessions(context.ledger, ['gone'], {});

    expect(result.deleted).toEqual(['gone']);
    expect((allRows(await readModels.ready('catalog'), new Date())).map((row) => row.rootId)).toEqual(['keep']);
    await store.close();
    expect(Object.fromEntries(Object.entries(secrets).map(([key, text]) => [key, holding(file, text)]))).toEqual({ title: [], source: [], model: [], owner: [] });
  });
});
