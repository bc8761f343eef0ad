import { describe, expect, it } from 'vitest';
import { servedLedger, trouble } from './browser.js';
import { apiOf } from './seed.js';

describe('the browser: the list of conversations', () => {
  const served = servedLedger(async (url) => {
    const api = apiOf(url);
    for (const [id, title, count] of [['old', 'Oldest talk', 1], ['mid', 'Middle talk', 2], ['new', 'Newest talk', 3]] as const) {
      await api('POST', '/sessions', { id, title });
      for (let n = 0; n < count; n += 1) await api('POST', `/sessions/${id}/messages`, { role: 'user', content: `${title} ${n}` });
    }
    await api('POST', '/sessions/mid/turns', { ttl: '10m', owner: 'test' });
  });

  it('shows every conversation newest first, with its message count, a live badge and links by root id', async () => {
    const page = await served.browser.open(`${served.service.url}/`);
    await page.locator('table.catalog tbody tr').nth(2).waitFor();
    const rows = await page.locator('table.catalog tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows.map((row) => row[0])).toEqual(['Middle talk', 'Newest talk', 'Oldest talk']);
    expect(rows.map((row) => row[3])).toEqual(['2', '3', '1']);
    expect(rows.map((row) => row[5])).toEqual(['live', '', '']);
    expect(await page.locator('table.catalog a').first().getAttribute('href')).toBe('/s/mid');
    expect(await page.locator('a[rel=next]').count()).toBe(0);
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
  });

  it('walks pages by cursor (next, then previous) when the server answers the paged catalog', async () => {
    const page = await served.browser.context.newPage();
    const asked: string[] = [];
    const row = (rootId: string) => ({ rootId, tipId: rootId, segments: [rootId], title: `Row ${rootId}`, source: 'codex', model: 'm-1', messages: 1, firstActivity: null, lastActivity: null, live: false, ended: false, parentId: null, link: null });
    await page.route('**/sessions*', async (route) => {
      const url = new URL(route.request().url());
      asked.push(url.search);
      const cursor = url.searchParams.get('cursor');
      const body = cursor === null ? { sessions: [row('a')], nextCursor: 'c/1 +' } : { sessions: [row('b')], nextCursor: null };
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
    });
    await page.goto(`${served.service.url}/`);
    await page.getByText('Row a').waitFor();
    expect(await page.locator('table.catalog td').nth(1).textContent()).toBe('codex');
    expect(await page.locator('table.catalog td').nth(2).textContent()).toBe('m-1');
    await page.click('a[rel=next]');
    await page.getByText('Row b').waitFor();
    expect(asked).toEqual(['', `?cursor=${encodeURIComponent('c/1 +')}`]);
    expect(await page.locator('a[rel=next]').count()).toBe(0);
    await page.click('a[rel=prev]');
    await page.getByText('Row a').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.close();
  });

  it('moves through rows with j and k, shows focus, and reads in dark mode', async () => {
    const page = await served.browser.open(`${served.service.url}/`);
    await page.locator('table.catalog tbody tr').nth(2).waitFor();
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Middle talk');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Newest talk');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/s/new');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(21, 23, 26)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(253, 253, 252)');
    await page.close();
  });
});
