import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createLedger } from '@session-ledger/core';
import { appendMessages, listConversations, startSession } from '@session-ledger/sessions';
import { interruptCli, untilCaught } from '../support/kill.js';
import { allRows, catalogStore, dump, scratchDir } from './support.js';

const WRITER = fileURLToPath(new URL('./fixtures/writer.mjs', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the catalog's meta row and message total from another connection (the writer's file, in WAL). */
const peek = (file: string) => {
  if (!existsSync(file)) return { status: undefined, position: -1, messages: 0 };
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const meta = db.prepare("SELECT status, position FROM read_models WHERE name = 'catalog'").get() as { status: string; position: number } | undefined;
    const messages = db.prepare('SELECT coalesce(sum(messages), 0) AS n FROM catalog').get() as { n: number };
    return { status: meta?.status, position: meta?.position ?? -1, messages: messages.n };
  } catch {
    return { status: undefined, position: -1, messages: 0 };
  } finally {
    db.close();
  }
};

/** After a kill: reopened, the catalog is whole (the same rows as the fold of $all) and equal to a rebuild. */
const expectWhole = async (file: string) => {
  const { store, readModels } = catalogStore(file);
  const db = await readModels.ready('catalog');
  const now = new Date();
  const rows = allRows(db, now, 50);
  expect(rows.map(({ source: _s, model: _m, firstActivity: _f, ...row }) => row)).toEqual(await listConversations(store, { now }));
  const kept = dump(db);
  await readModels.rebuild('catalog');
  expect(dump(db)).toEqual(kept);
  return rows;
};

describe('read models after kill -9', { timeout: 240_000 }, () => {
  it('inline appends: every acknowledged or committed write is in the catalog once, no gap, no duplicate', async () => {
    const file = join(scratchDir(), 'ledger.sqlite');
    const child = spawn(process.execPath, [WRITER, file], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    while (peek(file).messages < 400) await sleep(20);
    child.kill('SIGKILL');
    await exited;

    const rows = await expectWhole(file);
    expect(rows.reduce((sum, row) => sum + row.messages, 0)).toBeGreaterThanOrEqual(400);
  });

  it('a rebuild killed part way resumes from its last chunk on the next open', async () => {
    const caught = await untilCaught(async () => {
      const dir = scratchDir();
      const file = join(dir, 'ledger.sqlite');
      {
        const { store } = catalogStore(file);
        const context = { ledger: createLedger(store) };
        for (let session = 0; session < 40; session += 1) {
          const { sessionId } = await startSession(context, { title: `s${session}` });
          for (let batch = 0; batch < 5; batch += 1) {
            await appendMessages(context, sessionId, Array.from({ length: 100 }, (_, n) => ({ role: 'user' as const, content: `m${batch}-${n}` })));
          }
        }
        await store.close();
      }
      const killed = await interruptCli(['projections', 'rebuild', 'catalog'], { SESSION_LEDGER_STORE: `sqlite:${file}`, SESSION_LEDGER_HOME: dir }, {
        ready: () => {
          const seen = peek(file);
          return seen.status === 'rebuilding' && seen.position > 0;
        },
      });
      return killed && { killed, file, before: peek(file) };
    });
    expect(caught.killed.signal).toBe('SIGKILL');
    expect(caught.before.status).toBe('rebuilding');

    const rows = await expectWhole(caught.file);
    expect(rows.reduce((sum, row) => sum + row.messages, 0)).toBe(40 * 500);
    expect(peek(caught.file).status).toBe('ok');
  });
});
