import { describe, expect, it } from 'vitest';
import { servedLedger, trouble } from './browser.js';
import { apiOf } from './seed.js';

const TOKEN = 'browser-token-1';

describe('the browser: token mode (serve --token)', () => {
  const served = servedLedger(async (url) => {
    const api = apiOf(url, TOKEN);
    await api('POST', '/sessions', { id: 'secret', title: 'Behind the token' });
    await api('POST', '/sessions/secret/messages', { id: 's1', role: 'user', content: 'hello' });
  }, ['--token', TOKEN]);

  it('serves the page without the token but no data; asks once, keeps it for the tab, sends it on every fetch and on the live feed', async () => {
    expect((await fetch(`${served.service.url}/`)).status).toBe(200);
    expect((await fetch(`${served.service.url}/sessions`)).status).toBe(401);
    const page = await served.browser.open(`${served.service.url}/`);
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
    await apiOf(served.service.url, TOKEN)('POST', '/sessions/secret/messages', { id: 's2', role: 'assistant', content: 'live, with a token' });
    await page.locator('#message-s2').waitFor();
    const apiCalls = sent.filter((header) => header !== undefined);
    expect(apiCalls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(apiCalls)).toEqual(new Set([`Bearer ${TOKEN}`]));
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
  });
});
