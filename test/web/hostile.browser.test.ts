import { CONTENT_SECURITY_POLICY } from '@session-ledger/web';
import { describe, expect, it } from 'vitest';
import { servedLedger, trouble } from './browser.js';
import { rawRequest } from '../support/http.js';
import { apiOf } from './seed.js';

const flagged = (name: string) => `window.__pwned_${name}=1`;

/** Content that would run script if it ever reached the page as markup, a URL or an attribute. */
const HOSTILE = [
  `<img src=x onerror="${flagged('img')}">`,
  `<script>${flagged('script')}</script>`,
  `[click me](javascript:${flagged('link')})`,
  `<a href="javascript:${flagged('href')}">x</a><svg onload="${flagged('svg')}"></svg>`,
  `"><iframe srcdoc="<script>parent.${flagged('frame')}</script>">`,
  '\u202Egnp.exe \u2066isolate\u2069 \u001b]0;retitled\u0007 \u0000',
];

const pwned = () => Object.keys(window).filter((key) => key.startsWith('__pwned'));

describe('the browser: hostile content never runs', () => {
  const served = servedLedger(async (url) => {
    const api = apiOf(url);
    await api('POST', '/sessions', { id: 'evil', title: HOSTILE[0], source: HOSTILE[1], model: HOSTILE[4] });
    for (const [index, content] of HOSTILE.entries()) await api('POST', '/sessions/evil/messages', { id: `h${index}`, role: 'user', content });
    await api('POST', '/sessions/evil/messages', {
      id: 'call',
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'c', type: 'function', function: { name: HOSTILE[0], arguments: `${HOSTILE[1]} ${HOSTILE[5]}` } }],
    });
    await api('PATCH', '/sessions/evil/messages/h1', { content: HOSTILE[3] });
  });

  it('shows it as text in the list and the conversation (every view, folded parts opened): no script, no dialog, no element from it', async () => {
    const list = await served.browser.open(`${served.service.url}/`);
    await list.locator('table.catalog tbody tr').first().waitFor();
    expect(await list.locator('table.catalog a').first().textContent()).toBe(HOSTILE[0]);
    for (const view of ['display', 'active', 'raw']) {
      const page = await served.browser.open(`${served.service.url}/s/evil?view=${view}`);
      await page.locator(view === 'raw' ? 'ol.raw li' : '#message-h5').first().waitFor();
      const closed = page.locator('main details:not([open]) > summary');
      while ((await closed.count()) > 0) await closed.first().click();
      if (view !== 'raw') {
        expect(await page.locator('#message-h0 .content').textContent()).toBe(HOSTILE[0]);
        expect(await page.locator('#message-h5 .content').textContent()).toBe(HOSTILE[5]);
      }
      expect(await page.locator('main img, main script, main iframe, main svg, main a[href^="javascript"]').count()).toBe(0);
      expect(await page.evaluate(pwned)).toEqual([]);
      expect(await trouble(page)).toEqual({ dialogs: [], errors: [], violations: [] });
    }
    expect(await list.evaluate(pwned)).toEqual([]);
    expect(await trouble(list)).toEqual({ dialogs: [], errors: [], violations: [] });
  });

  it('shows bidi controls in stored JSON (a tool call, a raw event) escaped, so no line of it is drawn backwards (outside test, session 24)', async () => {
    for (const view of ['display', 'raw']) {
      const page = await served.browser.open(`${served.service.url}/s/evil?view=${view}`);
      await page.locator(view === 'raw' ? 'ol.raw li' : '#message-call').first().waitFor();
      const closed = page.locator('main details:not([open]) > summary');
      while ((await closed.count()) > 0) await closed.first().click();
      const shown = (await page.locator('main pre').allTextContents()).join('\n');
      expect(shown).toContain('\\u202egnp.exe \\u2066isolate\\u2069');
      // before, the controls themselves were in the text: the rest of the line rendered reversed
      expect(/[\u202a-\u202e\u2066-\u2069]/.test(shown)).toBe(false);
    }
  });

  it('renders hostile search snippets as text with only the marked ranges in <mark>', async () => {
    const page = await served.browser.context.newPage();
    const snippet = `before ${HOSTILE[0]} after`;
    const start = snippet.indexOf('<img');
    await page.route('**/search?*', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ query: 'img', hits: [{ rootId: 'evil', tipId: 'evil', messageId: 'h0', role: 'user', snippet, marks: [[start + 1, start + 4], [900, 950]], rank: 1 }] }),
      }),
    );
    await page.goto(`${served.service.url}/?q=img`);
    await page.locator('li.hit').waitFor();
    expect(await page.locator('li.hit .snippet').textContent()).toBe(snippet);
    expect(await page.locator('li.hit mark').allTextContents()).toEqual(['img']);
    expect(await page.locator('li.hit a').getAttribute('href')).toBe('/s/evil#message-h0');
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(pwned)).toEqual([]);
    await page.close();
  });

  it('serves the page and its assets with the Content-Security-Policy, nosniff and no referrer, after the Host check', async () => {
    for (const path of ['/', '/s/evil', '/assets/app.js', '/assets/style.css']) {
      const response = await fetch(`${served.service.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-security-policy'), path).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    const head = await rawRequest(served.service.url, { method: 'HEAD', path: '/s/evil' });
    expect([head.status, head.headers['content-security-policy'], head.text]).toEqual([200, CONTENT_SECURITY_POLICY, '']);
    expect((await fetch(`${served.service.url}/s/evil/extra`)).status).toBe(404);
    // A method the page does not take: 405 naming those it does, as on every path of the service.
    const post = await fetch(`${served.service.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
    expect((await fetch(`${served.service.url}/assets/nothing.js`)).status).toBe(404);
    expect((await fetch(`${served.service.url}/assets/..%2Fpackage.json`)).status).toBe(404);
    const rebound = await rawRequest(served.service.url, { path: '/', headers: { host: 'evil.example:80' } });
    expect(rebound.status).toBe(403);
  });
});
