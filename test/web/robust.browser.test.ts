import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { servedLedger, trouble } from './browser.js';
import { apiOf } from './seed.js';

const RLO = '\u202E';
const BIG_TITLE = 'T'.repeat(1_000_000);

/**
 * Every text node under `root` that holds `value`, described by the element around it: its text, its
 * tag and its computed `unicode-bidi`. Isolated means that element holds exactly the value (its
 * neighbours are outside it) and is isolated (a <bdi>, `dir`, or `unicode-bidi: isolate`/`plaintext`).
 */
const holders = (page: Page, root: string, value: string) =>
  page.evaluate(
    ([root, value]) => {
      const found: { tag: string; text: string; bidi: string }[] = [];
      for (const scope of document.querySelectorAll(root)) {
        const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.nodeValue!.includes(value)) continue;
          const element = node.parentElement!;
          found.push({ tag: element.localName, text: element.textContent!, bidi: getComputedStyle(element).unicodeBidi });
        }
      }
      return found;
    },
    [root, value] as const,
  );

const expectIsolated = async (page: Page, root: string, value: string, times = 1) => {
  const found = await holders(page, root, value);
  expect(found, `${root} ${JSON.stringify(value)}`).toHaveLength(times);
  for (const holder of found) {
    expect(holder.text, `${root} ${JSON.stringify(value)} shares its element with other text`).toBe(value);
    expect(['isolate', 'plaintext', 'isolate-override'], `${root} ${JSON.stringify(value)} in a <${holder.tag}> that is not isolated`).toContain(holder.bidi);
  }
};

describe('the browser: malformed addresses, a huge title, bidi controls', () => {
  const served = servedLedger(async (url) => {
    const api = apiOf(url);
    await api('POST', '/sessions', { id: 'frag', title: 'Fragments' });
    await api('POST', '/sessions/frag/messages', { id: 'f1', role: 'user', content: 'First.' });
    await api('POST', '/sessions', { id: 'bigtitle', title: BIG_TITLE });
    await api('POST', '/sessions', { id: 'bidi', title: `Plan${RLO}`, source: `cli${RLO}`, model: `gpt${RLO}` });
    await api('POST', '/sessions/bidi/messages', { id: 'b1', role: 'user', content: 'Hello.' });
    await api('POST', '/sessions/bidi/end', { reason: `done ${RLO}` });
    for (const [id, title] of [['blank-empty', ''], ['blank-spaces', '   '], ['blank-zwsp', '\u200B'], ['blank-rlo', RLO]]) {
      await api('POST', '/sessions', { id, title });
    }
  });

  // Outside test, session 35 (helper-96 F8): an empty or invisible title made the row's link 0 px wide.
  it('shows a conversation whose title shows nothing (empty, spaces, U+200B, U+202E) as untitled, with a link one can click', async () => {
    const list = await served.browser.open(`${served.service.url}/`);
    for (const id of ['blank-empty', 'blank-spaces', 'blank-zwsp', 'blank-rlo']) {
      const link = list.locator(`table.catalog a[href="/s/${id}"]`);
      await link.waitFor();
      expect([await link.textContent(), await link.getAttribute('class')]).toEqual([`untitled ${id}`, 'untitled']);
      expect((await link.boundingBox())!.width).toBeGreaterThan(20);
    }
    await list.locator('table.catalog a[href="/s/blank-zwsp"]').click();
    await list.locator('h1').waitFor();
    expect(await list.locator('h1').textContent()).toBe('untitled blank-zwsp');
    await list.close();
  });

  // Outside test, session 35 (helper-96 F7): a view named after an Object method showed an error page.
  for (const view of ['constructor', '__proto__', 'toString']) {
    it(`takes ?view=${view} as the display view, as any unknown view`, async () => {
      const page = await served.browser.open(`${served.service.url}/s/frag?view=${view}`);
      await page.locator('#message-f1').waitFor();
      expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
      await page.close();
    });
  }

  for (const fragment of ['%E0', '%']) {
    it(`ignores a fragment that is not valid percent-encoding (#${fragment}) and still follows the conversation live`, async () => {
      const page = await served.browser.open(`${served.service.url}/s/frag#${fragment}`);
      await page.locator('#message-f1').waitFor();
      const id = `live-${fragment === '%' ? 'pct' : 'e0'}`;
      await apiOf(served.service.url)('POST', '/sessions/frag/messages', { id, role: 'assistant', content: 'Written afterwards.' });
      await page.locator(`#message-${id}`).waitFor({ timeout: 15_000 });
      expect(await page.locator(`#message-${id} .content`).textContent()).toBe('Written afterwards.');
      expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
      await page.close();
    });
  }

  it('says in the page that /s/%E0 names no conversation instead of staying on "Loading…"', async () => {
    const page = await served.browser.open(`${served.service.url}/s/%E0`);
    const error = page.locator('main .error[role=alert]');
    await error.waitFor({ timeout: 10_000 });
    expect(await error.textContent()).toMatch(/not valid percent-encoding/);
    expect(await page.locator('main').textContent()).not.toMatch(/Loading/);
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
    await page.close();
  });

  // Whether the page renders at all, not how fast (docs/benchmarks.md holds figures): before, laying
  // out one 1,000,000-character word took minutes (quadratic line breaking), so neither view appeared.
  it('renders a 1,000,000-character title, the whole of it, in the conversation heading and in the list', async () => {
    const page = await served.browser.open(`${served.service.url}/s/bigtitle`);
    await page.locator('h1').waitFor({ timeout: 30_000 });
    const height = await page.locator('h1').evaluate((h1) => h1.getBoundingClientRect().height, undefined, { timeout: 30_000 });
    expect(height).toBeGreaterThan(0);
    expect(await page.locator('h1').evaluate((h1) => h1.textContent)).toBe(BIG_TITLE);
    expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
    await page.close();

    const list = await served.browser.open(`${served.service.url}/`);
    const row = list.locator('table.catalog a[href="/s/bigtitle"]');
    await row.waitFor({ timeout: 30_000 });
    expect(await row.evaluate((link) => link.textContent)).toBe(BIG_TITLE);
    await list.close();
  });

  it('isolates every ledger text shown next to other text, so a U+202E in one cannot reverse its neighbours', async () => {
    const page = await served.browser.open(`${served.service.url}/s/bidi`);
    await page.locator('#message-b1').waitFor();
    await expectIsolated(page, 'main h1', `Plan${RLO}`);
    await expectIsolated(page, 'main .conversation-head .meta', `cli${RLO}`);
    await expectIsolated(page, 'main .conversation-head .meta', `gpt${RLO}`);
    await expectIsolated(page, 'main .marker.ended', `done ${RLO}`);
    // The neighbours are outside it: the last-activity time and the end time are their own elements, read as written.
    const meta = await page.locator('main .conversation-head .meta').textContent();
    expect(meta).toMatch(new RegExp(`· cli${RLO} · gpt${RLO} · last activity \\S`));
    expect(await page.locator('main .marker.ended p').textContent()).toMatch(new RegExp(`^Session ended: done ${RLO} \\S`));
    await page.close();

    const list = await served.browser.open(`${served.service.url}/`);
    await list.locator('table.catalog tbody tr').first().waitFor();
    await expectIsolated(list, 'main table.catalog', `Plan${RLO}`);
    await expectIsolated(list, 'main table.catalog', `cli${RLO}`);
    await expectIsolated(list, 'main table.catalog', `gpt${RLO}`);
    expect(await trouble(list)).toEqual({ dialogs: [], errors: [], violations: [] });
    await list.close();
  });
});
