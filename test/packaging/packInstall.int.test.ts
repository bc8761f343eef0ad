import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEsdbTestServer, type EsdbTestServer } from '../esdb-server/index.js';
import { REPO, workspaces, writeScratchProject } from './scratchProject.js';

/**
 * What a backend service does: `npm pack` every package, install the tarballs into a project of its
 * own (offline, from the npm cache the monorepo's `npm ci` filled) and run the examples/ against them.
 * It runs on the built packages (`npm test` builds first).
 */
const scratch = mkdtempSync(join(tmpdir(), 'packaging-'));
const tarballs = join(scratch, 'tarballs');
const app = join(scratch, 'app');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
let packed: Array<{ name: string; filename: string; files: Array<{ path: string }> }> = [];

beforeAll(() => {
  mkdirSync(tarballs);
  mkdirSync(app);
  packed = JSON.parse(npm(['pack', '--workspaces', '--ignore-scripts', '--json', '--pack-destination', tarballs], REPO));
  writeScratchProject(app, tarballs);
  npm(['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], app);
  // Install scripts are skipped (compiling better-sqlite3 again would take minutes): its native build is copied.
  const native = join('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  mkdirSync(join(app, native, '..'), { recursive: true });
  copyFileSync(join(REPO, native), join(app, native));
  for (const example of readdirSync(join(REPO, 'examples'))) copyFileSync(join(REPO, 'examples', example), join(app, example));
}, 180_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (file: string, env: Record<string, string> = {}) => {
  const result = spawnSync(process.execPath, [file], { cwd: app, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

describe('every package packs and installs outside the monorepo', { timeout: 120_000 }, () => {
  it('packs dist, README and LICENSE, declares what it points at, and pins its siblings by version', () => {
    const license = readFileSync(join(REPO, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} session-ledger contributors\n/);
    expect(packed.map((entry) => entry.name).sort()).toEqual(workspaces().map((ws) => ws.manifest.name).sort());
    for (const { dir, manifest } of workspaces()) {
      const files = new Set(packed.find((entry) => entry.name === manifest.name)!.files.map((file) => file.path));
      const pointedAt = [manifest.main, manifest.types, manifest.exports?.['.']?.types, manifest.exports?.['.']?.default, ...Object.values(manifest.bin ?? {})];
      for (const target of pointedAt) if (target !== undefined) expect(files, `${manifest.name}: ${target}`).toContain(target.replace(/^\.\//, ''));
      expect(files, manifest.name).toContain('README.md');
      expect(files, manifest.name).toContain('LICENSE');
      expect([...files].filter((file) => file.startsWith('src/') || file.endsWith('.tsbuildinfo')), manifest.name).toEqual([]);
      expect(readFileSync(join(app, 'node_modules', manifest.name, 'LICENSE'), 'utf8'), `${dir}/LICENSE`).toBe(license);
      expect([manifest.license, manifest.engines?.node], manifest.name).toEqual(['MIT', '>=20']);
      for (const [name, version] of Object.entries(manifest.dependencies ?? {})) {
        if (name.startsWith('@session-ledger/')) expect(version, `${manifest.name} -> ${name}`).toBe(manifest.version);
        else expect(version, `${manifest.name} -> ${name}`).toMatch(/^\d+\.\d+\.\d+$/);
      }
    }
  });

  it('(a) appends and reads a stream', () => {
    const result = run('append-and-read.mjs');
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('orders-1@0 order.placed {"sku":"A-1","qty":2}\norders-1@1 order.paid {"amount":40}\nchain intact over 2 events\n');
  });

  it('(b) subscribes with a durable checkpoint: resumes after it, parks a failing handler, resumes with nothing lost', () => {
    const result = run('durable-subscriber.mjs');
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^first run billed 1,2; checkpoint \d+\nparked after 3 attempts at orders-3@0: billing service unavailable\nafter resume billed 1,2,3\n$/);
  });

  it('(c) runs a projection', () => {
    const result = run('projection.mjs');
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('user: What is 6 x 7? (compacted)\nassistant: 42\n4 events folded into 2 messages\n');
  });

  it('(d) uses the EventStoreDB store (against the gRPC test double unless SESSION_LEDGER_TEST_ESDB names a server)', async () => {
    let server: EsdbTestServer | undefined;
    const url = process.env.SESSION_LEDGER_TEST_ESDB ?? (server = await startEsdbTestServer()).url;
    try {
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        // Asynchronous: the test double answers from this process.
        const child = spawn(process.execPath, ['eventstoredb.mjs'], { cwd: app, env: { ...process.env, ESDB_URL: url } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
        child.on('exit', (code: number | null) => resolve({ code, stdout, stderr }));
      });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('orders-*@0 order.placed\norders-*@1 order.paid\nsubscriber saw order.placed, order.paid; chain intact\n');
      expect(result.code).toBe(0);
    } finally {
      await server?.close();
    }
  });

  it('runs every README example marked `js runnable` against the installed packages', () => {
    let count = 0;
    for (const { dir } of workspaces()) {
      const readme = readFileSync(join(REPO, dir, 'README.md'), 'utf8');
      for (const [, code] of readme.matchAll(/```js runnable\n([\s\S]*?)```/g)) {
        const file = `readme-example-${count++}.mjs`;
        writeFileSync(join(app, file), code!);
        const result = run(file);
        expect([result.code, result.stderr], `${dir}/README.md`).toEqual([0, '']);
      }
    }
    expect(count).toBeGreaterThanOrEqual(6);
  });

  it('installs the session-ledger command: npx session-ledger works in the project', () => {
    expect(existsSync(join(app, 'node_modules/.bin/session-ledger'))).toBe(true);
    const help = spawnSync('npx', ['--offline', '--no-install', 'session-ledger', '--help'], { cwd: app, encoding: 'utf8', timeout: 60_000 });
    expect(help.stdout).toMatch(/^Usage: session-ledger /);
    const appended = spawnSync('npx', ['--offline', '--no-install', 'session-ledger', '--store', 'memory:', 'events', 'append', 'orders-1', '--type', 'placed', '--data', '{}'], {
      cwd: app,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect([appended.status, appended.stdout.trim()]).toEqual([0, '0']);
  });

  it('ships the session browser: the installed @session-ledger/web finds its page and assets', () => {
    const keys = ['index.html', 'assets/app.js', 'assets/style.css'];
    writeFileSync(join(app, 'web-assets.mjs'), `import { webAsset } from '@session-ledger/web';\nfor (const key of ${JSON.stringify(keys)}) console.log(webAsset(key)?.type ?? 'missing');\n`);
    const result = run('web-assets.mjs');
    expect([result.code, result.stdout.trim().split('\n')]).toEqual([0, ['text/html; charset=utf-8', 'text/javascript; charset=utf-8', 'text/css; charset=utf-8']]);
  });

  it('in a clone, npm install links the command too: npx session-ledger works in the repository', () => {
    const help = spawnSync('npx', ['--offline', '--no-install', 'session-ledger', '--help'], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
    expect(help.stdout).toMatch(/^Usage: session-ledger /);
  });
});
