import { describe, expect, it } from 'vitest';
import { servedLedger, trouble } from './browser.js';
import { apiOf, seedConversation } from './seed.js';

describe('the browser: live updates', () => {
  const served = servedLedger();

  it('shows messages a turn appends while the page is open, through the SSE feed, without a reload', async () => {
    const api = apiOf(served.service.url);
    await seedConversation(api);
    const page = await served.browser.open(`${served.service.url}/s/web-root`);
    await page.locator('#message-m6').waitFor();
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const { turnId } = await api('POST', '/sessions/web-tip/turns', { owner: 'harness' });
    await page.locator('h1 .badge.live').waitFor();
    await api('POST', '/sessions/web-tip/messages', { id: 'm7', role: 'user', content: 'Book it.', turnId });
    await page.locator('#message-m7').waitFor();
    await api('POST', '/sessions/web-tip/messages', { id: 'm8', role: 'assistant', content: 'Booked: two nights.', turnId });
    await page.locator('#message-m8').waitFor();
    expect(await page.locator('#message-m8 .content').textContent()).toBe('Booked: two nights.');
    await api('POST', `/sessions/web-tip/turns/${String(turnId)}/end`, {});
    await page.locator('h1 .badge.live').waitFor({ state: 'detached' });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
  });

  it('opened by an id prefix, it keeps showing that conversation when a session whose id is that prefix starts (outside test, session 24)', async () => {
    const api = apiOf(served.service.url);
    await seedConversation(api, 'prefixed-root-0001', 'prefixed-tip-0001');
    const page = await served.browser.open(`${served.service.url}/s/prefixed-root`);
    await page.locator('#message-m6').waitFor();
    // an exact id wins over a prefix: before, the next reload showed this new conversation instead
    await api('POST', '/sessions', { id: 'prefixed-root', title: 'another conversation' });
    await api('POST', '/sessions/prefixed-root/messages', { id: 'other-1', role: 'user', content: 'not the one on the page' });
    await api('POST', '/sessions/prefixed-tip-0001/messages', { id: 'm7', role: 'user', content: 'written to the one on the page' });
    await page.locator('#message-m7').waitFor();
    expect(await page.locator('#message-other-1').count()).toBe(0);
    expect(await page.locator('.meta code').first().textContent()).toBe('prefixed-root-0001');
  });

  it('a conversation deleted elsewhere while open: the page says so, drops what it showed and disables its buttons (outside test, session 27)', async () => {
    const api = apiOf(served.service.url);
    await seedConversation(api, 'gone-root-0001', 'gone-tip-0001');
    const page = await served.browser.open(`${served.service.url}/s/gone-root-0001`);
    await page.locator('#message-m6').waitFor();
    const deleted = await fetch(`${served.service.url}/sessions/gone-root-0001`, { method: 'DELETE', headers: { 'if-match': '*' } });
    expect(deleted.status).toBe(200);
    // Before, the feed's session_deleted was taken for a change, the reload's 410 was swallowed, and the erased messages stayed.
    await page.getByText('This conversation was deleted', { exact: false }).waitFor();
    expect(await page.locator('#message-m6').count()).toBe(0);
    const buttons = page.locator('.actions button');
    expect(await buttons.count()).toBeGreaterThan(0);
    for (const disabled of await buttons.evaluateAll((all) => all.map((button) => (button as HTMLButtonElement).disabled))) expect(disabled).toBe(true);
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
  });
});
