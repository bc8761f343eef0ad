import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { tempDir } from '../support/cli.js';
import { startServer } from '../support/http.js';

/** Debian's chromium (`apt-get install chromium`); SESSION_LEDGER_CHROMIUM points elsewhere. */
export const CHROMIUM = process.env.SESSION_LEDGER_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** A new tab that records dialogs, page errors and CSP violations (see `trouble`). */
  open: (url: string) => Promise<Page>;
  close: () => Promise<void>;
}

export interface Trouble {
  dialogs: string[];
  errors: string[];
  violations: string[];
}

const troubles = new WeakMap<Page, Trouble>();

/** What went wrong in a tab so far: dialogs opened (and dismissed), uncaught errors, CSP violations. */
export const trouble = async (page: Page): Promise<Trouble> => {
  const seen = troubles.get(page)!;
  const violations = await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);
  return { ...seen, violations: [...seen.violations, ...violations] };
};

/** Launches chromium with a fresh profile directory (removed on close). */
export const launchBrowser = async (): Promise<Browser> => {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, acceptDownloads: true });
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const open = async (url: string) => {
    const page = await context.newPage();
    const seen: Trouble = { dialogs: [], errors: [], violations: [] };
    troubles.set(page, seen);
    page.on('dialog', (dialog) => {
      seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => seen.errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) seen.violations.push(message.text());
    });
    await page.goto(url);
    return page;
  };
  return {
    context,
    open,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
};

export interface ServedLedger {
  service: Awaited<ReturnType<typeof startServer>>;
  browser: Browser;
  /** The ledger file the service serves (a test may open it too, as a second process would). */
  file: string;
}

/**
 * A fresh ledger file served by `session-ledger serve` (with `serveArgs`) and a chromium, for one
 * describe block: started before its tests, then `seed(url)` writes what they read; both stopped after.
 */
export const servedLedger = (seed?: (url: string) => Promise<void>, serveArgs: string[] = []): ServedLedger => {
  const served = {} as ServedLedger;
  beforeAll(async () => {
    served.file = join(tempDir(), 'ledger.sqlite');
    served.service = await startServer({ SESSION_LEDGER_STORE: `sqlite:${served.file}` }, serveArgs);
    served.browser = await launchBrowser();
    await seed?.(served.service.url);
  });
  afterAll(async () => {
    await served.browser?.close();
    await served.service?.stop();
  });
  return served;
};
