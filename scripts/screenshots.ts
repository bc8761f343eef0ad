// `npm run screenshots`: the list, a search and a conversation of the session browser, into docs/.
// Serves a scratch ledger with the built CLI, fills it through the HTTP API, and photographs the
// pages in Debian's chromium (SESSION_LEDGER_CHROMIUM points elsewhere).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const REPO = new URL('..', new URL('..', import.meta.url)).pathname;
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const serve = async (store: string) => {
  const child = spawn(process.execPath, [join(REPO, 'packages/cli/bin/session-ledger.js'), 'serve', '--port', '0', '--json'], { env: { ...process.env, SESSION_LEDGER_STORE: store } });
  // Whatever ends this script (an error included) ends the server too.
  process.once('exit', () => child.kill());
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /"url":\s*"([^"]+)"/.exec(out);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { url, stop: () => child.kill() };
};

const seed = async (url: string) => {
  const call = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  };
  const say = (id: string, messageId: string, role: string, content: string | null, extra: object = {}) => call('POST', `/sessions/${id}/messages`, { id: messageId, role, content, ...extra });
  for (const [id, title, source, model] of [['standup', 'Daily standup notes', 'codex', 'gpt-5-mini'], ['refactor', 'Refactor the importer', 'claude-code', 'claude-sonnet']] as const) {
    await call('POST', '/sessions', { id, title, source, model });
    await say(id, `${id}-1`, 'user', `Let us start on: ${title.toLowerCase()}.`);
  }
  await call('POST', '/sessions', { id: 'trip', title: 'Trip planning', source: 'hermes', model: 'hermes-4' });
  await say('trip', 'm1', 'user', 'Where should we go in spring?');
  await say('trip', 'm2', 'assistant', 'Kyoto, for the cherry blossoms.');
  await call('POST', '/sessions/trip/compact', { through: 'm2', summary: 'They chose Kyoto in spring.' });
  await say('trip', 'm3', 'user', 'And the budget?');
  await call('PATCH', '/sessions/trip/messages/m3', { content: 'And the budget, roughly?' });
  await say('trip', 'm4', 'assistant', null, { toolCalls: [{ id: 'c1', type: 'function', function: { name: 'lookup_prices', arguments: '{"city":"Kyoto"}' } }] });
  await say('trip', 'm5', 'tool', '{"hotel": 120, "rail pass": 350}', { toolCallId: 'c1', toolName: 'lookup_prices' });
  await call('POST', '/sessions/trip/compress', { summary: 'Kyoto in spring; budget being worked out.', childId: 'trip-2' });
  await say('trip-2', 'm6', 'assistant', 'Budget: about 2000 EUR for a week, blossoms included.');
};

const main = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'screenshots-'));
  const server = await serve(`sqlite:${join(dir, 'ledger.sqlite')}`);
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: process.env.SESSION_LEDGER_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: FLAGS,
    viewport: { width: 1100, height: 720 },
  });
  try {
    await seed(server.url);
    const page = await context.newPage();
    const shot = async (path: string, ready: string, file: string) => {
      await page.goto(`${server.url}${path}`);
      await page.locator(ready).first().waitFor();
      await page.screenshot({ path: join(REPO, 'docs', file) });
      console.log(`docs/${file}`);
    };
    await shot('/', 'table.catalog tbody tr', 'browser-list.png');
    await shot('/?q=blossoms', 'li.hit', 'browser-search.png');
    await shot('/s/trip-2', '#message-m6', 'browser-conversation.png');
  } finally {
    await context.close();
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

await main();
