import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, trouble, type Browser } from './browser.js';
import { tempDir } from '../support/cli.js';
import { startServer } from '../support/http.js';
import { apiOf, seedConversation } from './seed.js';

/** Against the real GET /search of issue 15 (the shared contract): red until that branch is merged. */
describe('the browser: search', () => {
  let service: Awaited<ReturnType<typeof startServer>>;
  let browser: Browser;
  beforeAll(async () => {
    service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${join(tempDir(), 'ledger.sqlite')}` });
    browser = await launchBrowser();
    await seedConversation(apiOf(service.url));
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('submits the search box to /?q=, shows ranked hits with the match marked, and opens the hit at its message', async () => {
    const page = await browser.open(`${service.url}/`);
    await page.fill('input[name=q]', 'blossoms');
    await page.press('input[name=q]', 'Enter');
    await page.waitForURL('**/?q=blossoms');
    await page.locator('li.hit, sl-search .error').first().waitFor();
    expect(await page.locator('sl-search .error').allTextContents()).toEqual([]);
    const hit = page.locator('li.hit').first();
    expect(await hit.locator('mark').allTextContents()).toEqual(['blossoms']);
    expect(await hit.locator('.snippet').textContent()).toContain('cherry blossoms');
    expect(await hit.locator('a').getAttribute('href')).toBe('/s/web-root#message-m2');
    await hit.locator('a').click();
    await page.waitForURL('**/s/web-root#message-m2');
    await page.locator('#message-m2').waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('message-m2');
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
  });

  it('says so when nothing matches', async () => {
    const page = await browser.open(`${service.url}/?q=${encodeURIComponent('zebra crossing')}`);
    await page.locator('sl-search .status:not(:has-text("Searching")), sl-search .error').first().waitFor();
    expect(await page.locator('sl-search .error').allTextContents()).toEqual([]);
    expect(await page.locator('sl-search .status').textContent()).toBe('No messages match.');
    expect(await page.locator('li.hit').count()).toBe(0);
  });
});
