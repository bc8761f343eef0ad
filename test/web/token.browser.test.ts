import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, trouble, type Browser } from './browser.js';
import { tempDir } from '../support/cli.js';
import { startServer } from '../support/http.js';
import { apiOf } from './seed.js';

const TOKEN = 'browser-token-1';

describe('the browser: token mode (serve --token)', () => {
  let service: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  beforeAll(async () => {
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` }, ['--token', TOKEN]);
    browser = await launchBrowser();
    const api = apiOf(service.url, TOKEN);
    await api('POST', '/sessions', { id: 'secret', title: 'Behind the token' });
    await api('POST', '/sessions/secret/messages', { id: 's1', role: 'user', content: 'hello' });
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('serves the page without the token but no data; asks once, keeps it for the tab, sends it on every fetch and on the live feed', async () => {
    expect((await fetch(`${service.url}/`)).status).toBe(200);
    expect((await fetch(`${service.url}/sessions`)).status).toBe(401);
    const page = await browser.open(`${service.url}/`);
    await page.fill('form.token input', 'wrong');
    await page.press('form.token input', 'Enter');
    await page.locator('form.token', { hasText: 'That token was refused.' }).waitFor();
    await page.fill('form.token input', TOKEN);
    await page.click('form.token button');
    await page.getByText('Behind the token').waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([TOKEN]);
    const sent: Array<string | undefined> = [];
    page.on('request', (request) => sent.push(request.headers().authorization));
    await page.click('a:has-text("Behind the token")');
    await page.locator('#message-s1').waitFor();
    expect(await page.locator('form.token').count()).toBe(0);
    await apiOf(service.url, TOKEN)('POST', '/sessions/secret/messages', { id: 's2', role: 'assistant', content: 'live, with a token' });
    await page.locator('#message-s2').waitFor();
    const apiCalls = sent.filter((header) => header !== undefined);
    expect(apiCalls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(apiCalls)).toEqual(new Set([`Bearer ${TOKEN}`]));
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
  });
});
