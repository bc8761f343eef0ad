import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import { appendMessages, compressSession, loadConversation, startSession } from '@session-ledger/sessions';
import { exportSession } from '@session-ledger/retention';
import { runCli, tempDir } from '../support/cli.js';
import { countIn, interruptCli, untilCaught } from '../support/kill.js';
import { writerOn } from './helpers.js';

const envOf = (file: string) => ({ SESSION_LEDGER_STORE: `sqlite:${file}` });

const EVENTS = 'SELECT count(*) AS n FROM events';
const TOMBSTONED = 'SELECT count(*) AS n FROM streams WHERE tombstoned = 1';

type Audit = Array<{ type: string; id: string; data: { streams?: Array<{ stream: string }>; deleted?: string[]; intent?: string; complete?: boolean } }>;
const auditOf = (env: Record<string, string>): Audit => runCli(['events', 'read', 'ledger-audit', '--json'], { env }).json();

/** Seeds a SQLite file through the library, then closes it. */
const seed = async (build: (context: ReturnType<typeof writerOn>['context']) => Promise<void>) => {
  const file = join(tempDir('killed-'), 'ledger.sqlite');
  const store = openSqliteStore(file);
  await build(writerOn(store, new Date().toISOString()).context);
  await store.close();
  return file;
};

/** A conversation with 61 streams: the root and 60 delegated children. */
const wide = (context: ReturnType<typeof writerOn>['context']) =>
  (async () => {
    await startSession(context, { id: 'root' });
    await appendMessages(context, 'root', [{ role: 'user', content: 'root text' }]);
    for (let n = 0; n < 60; n += 1) {
      await startSession(context, { id: `child-${n}`, parentId: 'root', link: 'delegation' });
      await appendMessages(context, `child-${n}`, [{ role: 'assistant', content: `child text ${n}` }]);
    }
  })();
const WIDE_STREAMS = 61;

const AUDITED = (type: string) => `SELECT count(*) AS n FROM events WHERE stream = 'ledger-audit' AND type = '${type}'`;
/** A deletion's run between its intent and its outcome: on SQLite its tombstones are one transaction, committed or not. */
const betweenIntentAndOutcome = (file: string) => ({
  ready: () => countIn(file, AUDITED('retention.deletion_intended')) > 0,
  partWay: () => countIn(file, AUDITED('retention.deletion_intended')) > 0 && countIn(file, AUDITED('retention.deleted')) === 0,
});

/** After a killed deletion: one intent naming every stream, no outcome, and every stream tombstoned or none (all or none on SQLite). */
const intentOnly = (env: Record<string, string>, file: string) => {
  const audit = auditOf(env);
  const intents = audit.filter((record) => record.type === 'retention.deletion_intended');
  expect(intents).toHaveLength(1);
  expect(intents[0]!.data.streams).toHaveLength(WIDE_STREAMS);
  expect(audit.filter((record) => record.type === 'retention.deleted')).toHaveLength(0);
  expect([0, WIDE_STREAMS]).toContain(countIn(file, TOMBSTONED));
  return intents[0]!;
};

/** After the re-run: every stream tombstoned, named by the outcome of that intent; the chains verify. */
const completed = (env: Record<string, string>, file: string, intentId: string) => {
  expect(countIn(file, TOMBSTONED)).toBe(WIDE_STREAMS);
  const outcomes = auditOf(env).filter((record) => record.type === 'retention.deleted');
  expect(outcomes).toHaveLength(1);
  expect(outcomes[0]!.data).toMatchObject({ intent: intentId, complete: true });
  expect(outcomes[0]!.data.deleted).toHaveLength(WIDE_STREAMS);
  expect(runCli(['audit', 'verify'], { env }).code).toBe(0);
};

describe('runs killed part way are finished by running them again (CLI, kill -9)', { timeout: 300_000 }, () => {
  it('sessions import: every message exactly once after the re-run; audit verify passes', async () => {
    const source = await seed(async (context) => {
      await startSession(context, { id: 'root' });
      let tip = 'root';
      for (let segment = 0; segment < 12; segment += 1) {
        await appendMessages(context, tip, Array.from({ length: 500 }, (_, n) => ({ id: `m${segment}-${n}`, role: 'user' as const, content: `message ${segment}/${n}` })));
        tip = (await compressSession(context, tip, { summary: `part ${segment}` })).sessionId;
      }
    });
    const jsonl = join(tempDir('killed-import-'), 'root.jsonl');
    const store = openSqliteStore(source, { create: false });
    await exportSession(store, 'root', { format: 'jsonl', out: jsonl });
    await store.close();
    const total = readFileSync(jsonl, 'utf8').trim().split('\n').length - 1;

    let target = '';
    const killed = await untilCaught(async () => {
      target = join(tempDir('killed-import-'), 'ledger.sqlite');
      const stored = () => countIn(target, EVENTS);
      return interruptCli(['sessions', 'import', jsonl], envOf(target), { ready: () => stored() > 0, partWay: () => stored() > 0 && stored() < total });
    });
    expect(killed.signal).toBe('SIGKILL');
    const before = countIn(target, EVENTS);
    const env = envOf(target);

    const again = runCli(['sessions', 'import', jsonl, '--json'], { env });

    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ events: total, resumed: before });
    const restored = openSqliteStore(target, { create: false });
    const ids = (await loadConversation(restored, 'root')).messages.map((message) => message.id);
    await restored.close();
    expect(ids).toHaveLength(12 * 500);
    expect(new Set(ids).size).toBe(ids.length);
    expect(runCli(['audit', 'verify'], { env }).code).toBe(0);
    expect(auditOf(env).filter((record) => record.type === 'retention.imported')).toHaveLength(1);
  });

  it('sessions delete: the killed run left its intent naming every stream; the same command completes it', async () => {
    let file = '';
    const killed = await untilCaught(async () => {
      file = await seed(wide);
      return interruptCli(['sessions', 'delete', 'root', '--yes'], envOf(file), betweenIntentAndOutcome(file));
    });
    expect(killed.signal).toBe('SIGKILL');
    const env = envOf(file);
    const intent = intentOnly(env, file);

    const again = runCli(['sessions', 'delete', 'root', '--json', '--yes'], { env });

    expect(again.code).toBe(0);
    completed(env, file, intent.id);
  });

  it('export --delete-after-verified: the same command completes the deletion from the file it verified', async () => {
    let file = '';
    let out = '';
    const killed = await untilCaught(async () => {
      file = await seed(wide);
      out = join(tempDir('killed-export-'), 'root.md');
      const args = ['sessions', 'export', 'root', '--format', 'markdown', '--out', out, '--delete-after-verified'];
      return interruptCli(args, envOf(file), betweenIntentAndOutcome(file));
    });
    expect(killed.signal).toBe('SIGKILL');
    const env = envOf(file);
    const intent = intentOnly(env, file);
    const bytes = readFileSync(out);

    const again = runCli(['sessions', 'export', 'root', '--format', 'markdown', '--out', out, '--delete-after-verified', '--json'], { env });

    expect(again.code).toBe(0);
    expect(again.json().deleted).toHaveLength(WIDE_STREAMS);
    expect(readFileSync(out).equals(bytes)).toBe(true);
    completed(env, file, intent.id);
  });

  describe('export temp files', () => {
    const temps = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.tmp'));
    const bigFile = () =>
      seed(async (context) => {
        await startSession(context, { id: 'big' });
        for (let n = 0; n < 12; n += 1) await appendMessages(context, 'big', [{ role: 'user', content: `${n} ${'x'.repeat(2_000_000)}` }]);
      });

    it.each(['SIGKILL', 'SIGTERM'] as const)('%s mid-export: no temp file outlives the run (kill -9: the next export to the same --out removes it)', async (signal) => {
      const file = await bigFile();
      const env = envOf(file);
      const dir = tempDir('killed-tmp-');
      let out = '';
      let attempt = 0;
      const killed = await untilCaught(async () => {
        out = join(dir, `big-${(attempt += 1)}.md`);
        const writing = () => temps(dir).length > 0;
        return interruptCli(['sessions', 'export', 'big', '--format', 'markdown', '--out', out], env, { ready: writing, signal });
      });
      expect(killed.signal).toBe(signal);

      if (signal === 'SIGKILL') {
        expect(temps(dir)).toHaveLength(1);
        const again = runCli(['sessions', 'export', 'big', '--format', 'markdown', '--out', out, '--json'], { env });
        expect(again.code).toBe(0);
        expect(readFileSync(out, 'utf8')).toContain('11 xxx');
      }
      expect(temps(dir)).toEqual([]);
    });
  });
});
