import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLedger } from '@session-ledger/core';
import { encodeSessionEvent } from '@session-ledger/events';
import { FORMATS } from '@session-ledger/retention';
import { openSqliteStore } from '@session-ledger/store-sqlite';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { servedLedger, trouble } from './browser.js';
import { tempDir } from '../support/cli.js';
import { apiOf, seedConversation } from './seed.js';

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

describe('the browser: a conversation', () => {
  const served = servedLedger(async (url) => {
    const api = apiOf(url);
    await seedConversation(api);
    await api('POST', '/sessions', { id: 'web-helper', parentId: 'web-tip', link: 'delegation', title: 'Price lookup' });
    await api('POST', '/sessions/web-helper/messages', { id: 'h1', role: 'user', content: 'Find the prices.' });
    await api('POST', '/sessions', { id: 'web-fresh', parentId: 'web-helper', link: 'reset', title: 'Fresh start' });
    await api('POST', '/sessions/web-fresh/messages', { id: 'f1', role: 'user', content: 'Start over, please.' });
    await api('POST', '/sessions', { id: 'web-resumed', title: 'Resumed' });
    await api('POST', '/sessions/web-resumed/messages', { id: 'r1', role: 'user', content: 'Before the exit.' });
    await api('POST', '/sessions/web-resumed/end', { reason: 'cli_close' });
    await api('POST', '/sessions/web-resumed/reopen', {});
    await api('POST', '/sessions/web-resumed/messages', { id: 'r2', role: 'user', content: 'After the resume.' });
    await api('POST', '/sessions', { id: 'web-split', title: 'Split' });
    await api('POST', '/sessions/web-split/messages', { id: 's1', role: 'user', content: 'Before the compression.' });
    await api('POST', '/sessions/web-split/compress', { summary: 'Carried on elsewhere.', childId: 'web-split-2' });
    await api('POST', '/sessions/web-split-2/messages', { id: 's2', role: 'user', content: 'In the child.' });
    // As the Hermes import writes it (Hermes deleted the child and went on in the segment); no HTTP route writes one.
    const store = openSqliteStore(served.file);
    const withdrawal = encodeSessionEvent({ type: 'session.continuation_withdrawn', data: { childId: 'web-split-2', withdrawnAt: new Date().toISOString() } });
    await createLedger(store).append('session-web-split', [{ id: randomUUID(), ...withdrawal }]);
    await store.close();
    await api('POST', '/sessions/web-split/messages', { id: 's3', role: 'user', content: 'After the withdrawal.' });
  });

  for (const id of ['web-root', 'web-tip']) {
    it(`opened by its ${id === 'web-root' ? 'root' : 'tip'} id, shows root to tip: compacted messages marked, the markers, the tip's latest message`, async () => {
      const page = await served.browser.open(`${served.service.url}/s/${id}`);
      await page.locator('#message-m6').waitFor();
      expect(await page.locator('h1').textContent()).toBe('Trip planning');
      expect(await page.locator('article.message').evaluateAll((all) => all.map((a) => a.id))).toEqual(['message-m1', 'message-m2', 'message-m3', 'message-m4', 'message-m5', 'message-m6']);
      expect(await page.locator('article.compacted').evaluateAll((all) => all.map((a) => a.id))).toEqual(['message-m1', 'message-m2']);
      expect(await texts(page, '#message-m1 .badge.compacted')).toEqual(['compacted']);
      expect(await texts(page, '#message-m2 .content')).toEqual(['Kyoto, for the cherry blossoms.']);
      expect(await texts(page, '.marker.compaction .content')).toEqual(['They chose Kyoto in spring.']);
      expect(await texts(page, '.marker.compression .content')).toEqual(['Planning continues in a new segment.']);
      expect(await page.locator('.marker.compression a').getAttribute('href')).toBe('/s/web-tip');
      expect(await texts(page, '#message-m6 .content')).toEqual(['Budget: about 2000 EUR.']);
      expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
      await page.close();
    });
  }

  it('shows a rewrite with its earlier version on demand, and folds tool calls and results', async () => {
    const page = await served.browser.open(`${served.service.url}/s/web-tip`);
    await page.locator('#message-m6').waitFor();
    expect(await texts(page, '#message-m3 > .content')).toEqual(['And the budget, roughly?']);
    const versions = page.locator('#message-m3 details.versions');
    expect(await versions.locator('summary').textContent()).toBe('Earlier versions (1)');
    expect(await versions.locator('.content').isVisible()).toBe(false);
    await versions.locator('summary').click();
    expect(await versions.locator('.content').textContent()).toBe('And the budget?');
    expect(await versions.locator('.content').isVisible()).toBe(true);
    const call = page.locator('#message-m4 details.tool-call');
    expect(await call.locator('summary').textContent()).toBe('Tool call: lookup_prices');
    expect(await call.locator('pre').isVisible()).toBe(false);
    await call.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await call.locator('pre').textContent()).toContain('"arguments": "{\\"city\\":\\"Kyoto\\"}"');
    expect(await page.locator('#message-m5 details.tool-result summary').textContent()).toBe('Tool result: lookup_prices');
    expect(await page.locator('#message-m5 .content').isVisible()).toBe(false);
    await page.close();
  });

  it('links a delegated child from where it was started, and the child back to its parent', async () => {
    const page = await served.browser.open(`${served.service.url}/s/web-root`);
    await page.locator('#message-m6').waitFor();
    const child = page.locator('aside.marker.child');
    expect(await child.textContent()).toMatch(/^Delegated to web-helper/);
    await child.locator('a').click();
    await page.waitForURL('**/s/web-helper');
    await page.locator('p.parent').waitFor();
    expect(await page.locator('h1').textContent()).toBe('Price lookup');
    expect(await page.locator('p.parent').textContent()).toBe('Delegated from web-tip');
    expect(await page.locator('p.parent a').getAttribute('href')).toBe('/s/web-tip');
    await page.close();
  });

  it('marks where an ended session was reopened, between the messages before and after', async () => {
    const page = await served.browser.open(`${served.service.url}/s/web-resumed`);
    await page.locator('#message-r2').waitFor();
    const order = await page.locator('main article.message, main aside.marker').evaluateAll((all) => all.map((el) => el.id || el.className));
    expect(order).toEqual(['message-r1', 'marker ended', 'marker reopened', 'message-r2']);
    expect(await page.locator('aside.marker.reopened p').textContent()).toMatch(/^Session reopened: it takes messages again \S/);
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
    await page.close();
  });

  it('marks a withdrawn continuation after the compression it withdrew, links the child, and shows the child on its own', async () => {
    const page = await served.browser.open(`${served.service.url}/s/web-split`);
    await page.locator('#message-s3').waitFor();
    const order = await page.locator('main article.message, main aside.marker').evaluateAll((all) => all.map((el) => el.id || el.className));
    expect(order).toEqual(['message-s1', 'marker compression', 'marker withdrawn', 'message-s3']);
    expect(await page.locator('aside.marker.withdrawn p').textContent()).toMatch(/^Continuation withdrawn: web-split-2 stands on its own, and this session takes messages again \S/);
    await page.locator('aside.marker.withdrawn a').click();
    await page.waitForURL('**/s/web-split-2');
    await page.locator('#message-s2').waitFor();
    expect(await page.locator('article.message').evaluateAll((all) => all.map((a) => a.id))).toEqual(['message-s2']);
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
    await page.close();
  });

  it('shows a conversation started by a reset below the one it reset, with the reset marked and linked', async () => {
    const page = await served.browser.open(`${served.service.url}/s/web-fresh`);
    await page.locator('#message-f1').waitFor();
    expect(await page.locator('article.message').evaluateAll((all) => all.map((a) => a.id))).toEqual(['message-h1', 'message-f1']);
    expect(await page.locator('aside.marker.child').textContent()).toMatch(/^Reset: the thread goes on afresh in web-fresh/);
    expect(await page.locator('p.parent').textContent()).toBe('Reset from (shown above) web-helper');
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
    await page.close();
  });

  it('has tabs for the active view (summary in place of history) and the raw events', async () => {
    const page = await served.browser.open(`${served.service.url}/s/web-tip`);
    await page.locator('#message-m6').waitFor();
    await page.click('nav.tabs a:has-text("Active")');
    await page.waitForURL('**/s/web-root?view=active');
    await page.locator('#message-m6').waitFor();
    expect(await page.locator('nav.tabs a[aria-current=page]').textContent()).toBe('Active (what the model sees)');
    expect(await page.locator('article.message').evaluateAll((all) => all.map((a) => a.id))).toEqual(['message-m6']);
    expect(await texts(page, 'aside.marker .content')).toEqual(['Planning continues in a new segment.']);
    await page.click('nav.tabs a:has-text("Raw events")');
    await page.locator('ol.raw li').first().waitFor();
    const types = await texts(page, 'ol.raw li > p > code');
    expect(types[0]).toBe('session.started');
    expect(types).toContain('message.rewritten');
    expect(types).toContain('session.continued');
    await page.close();
  });

  it('downloads the export in every format the export route offers', async () => {
    const page = await served.browser.open(`${served.service.url}/s/web-root`);
    await page.locator('#message-m6').waitFor();
    expect(await page.locator('button[data-format]').evaluateAll((all) => all.map((b) => b.getAttribute('data-format')))).toEqual([...FORMATS]);
    for (const format of FORMATS) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`button[data-format=${format}]`)]);
      const file = join(tempDir(), download.suggestedFilename());
      await download.saveAs(file);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^web-root\\.(md|html|jsonl|qmd)$`));
      expect(readFileSync(file, 'utf8')).toContain('Budget: about 2000 EUR.');
      await page.locator('.actions .status', { hasText: `Exported as ${format}` }).waitFor();
    }
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
    await page.close();
  });
});
