import { describe, expect, it } from 'vitest';
import { servedLedger, trouble } from './browser.js';
import { apiOf, seedConversation } from './seed.js';

/** Against the real GET /search of issue 15 (the shared contract): red until that branch is merged. */
describe('the browser: search', () => {
  const served = servedLedger(async (url) => {
    await seedConversation(apiOf(url));
  });

  it('submits the search box to /?q=, shows ranked hits with the match marked, and opens the hit at its message', async () => {
    const page = await served.browser.open(`${served.service.url}/`);
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
    const page = await served.browser.open(`${served.service.url}/?q=${encodeURIComponent('zebra crossing')}`);
    await page.locator('sl-search .status:not(:has-text("Searching")), sl-search .error').first().waitFor();
    expect(await page.locator('sl-search .error').allTextContents()).toEqual([]);
    expect(await page.locator('sl-search .status').textContent()).toBe('No messages match.');
    expect(await page.locator('li.hit').count()).toBe(0);
  });
});
