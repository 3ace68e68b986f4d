/**
 * The studio in a real browser against a local stack: the stack of test/support/local-stack.ts
 * (which serves the build in studio/dist at `/`), Chromium, and the few steps
 * every studio test takes (sign up, read the session cookie), each with a bounded wait that says
 * which step timed out and what the page had printed.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { STUDIO_DIST } from '#local/studio-site';
import { SESSION_COOKIE } from '#domain/session';
import { launchBrowser, settle, watchConsole, type StudioBrowser } from './browser';
import { startTestStack, type TestStack, type TestStackOptions } from './local-stack';

export interface StudioStack {
  t: TestStack;
  /** Where the studio is served: http://127.0.0.1:PORT (no trailing slash). */
  baseUrl: string;
  apiUrl: string;
  browser: StudioBrowser;
  /** A fresh profile with one page open, its console watched for failure messages. */
  openPage(): Promise<StudioPage>;
  stop(): Promise<void>;
}

export interface StudioPage {
  context: BrowserContext;
  page: Page;
  /** Errors and warnings the page printed so far. */
  console(): string[];
}

export async function startStudioStack(options: TestStackOptions = {}): Promise<StudioStack> {
  // Jest's global setup (test/support/global/setup.ts) builds it once per run when a source changed.
  if (!existsSync(join(STUDIO_DIST, 'index.html'))) throw new Error(`no studio build in ${STUDIO_DIST}: run npm run studio:build`);
  const t = await startTestStack(options);
  let browser: StudioBrowser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await t.stop();
    throw error;
  }
  const contexts: BrowserContext[] = [];
  return {
    t,
    baseUrl: t.stack.baseUrl.replace(/\/$/, ''),
    apiUrl: t.stack.apiUrl,
    browser,
    async openPage() {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      // No action waits unbounded; a step that needs longer says so.
      page.setDefaultTimeout(15_000);
      return { context, page, console: watchConsole(page) };
    },
    async stop() {
      await Promise.allSettled(contexts.map((c) => c.close()));
      await browser.close().catch(() => undefined);
      await t.stop();
    },
  };
}

/**
 * Waits for what a step needs, at most `timeoutMs`, and fails with the step's name, the page's
 * address and what it printed, instead of a bare locator timeout.
 */
export async function step<T>(tab: StudioPage, what: string, timeoutMs: number, action: (timeout: number) => Promise<T>): Promise<T> {
  try {
    return await action(timeoutMs);
  } catch (error) {
    const printed = tab.console();
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(
      `Studio step "${what}" did not complete in ${timeoutMs} ms (at ${tab.page.url()}): ${message}${printed.length ? `\nThe page printed:\n  ${printed.slice(-10).join('\n  ')}` : ''}`,
      { cause: error },
    );
  }
}

/** Visible within the step's bound. */
export const visible = (tab: StudioPage, what: string, locator: Locator, timeoutMs = 15_000) =>
  step(tab, what, timeoutMs, (timeout) => locator.waitFor({ state: 'visible', timeout }));

const PASSWORD = 'correct horse battery staple';

/** Signs up through the sign-up page and waits for the signed-in shell's navigation. */
export async function signUp(studio: StudioStack, tab: StudioPage, email: string, name = 'Ada Lovelace'): Promise<void> {
  const { page } = tab;
  await page.goto(`${studio.baseUrl}/sign-up`);
  await visible(tab, 'the sign-up form', page.getByRole('button', { name: 'Create account' }));
  await step(tab, 'fill in and send the sign-up form', 15_000, async (timeout) => {
    // Labels of required fields end in Mantine's " *", so they are matched as a prefix.
    await page.getByLabel('Your name').fill(name, { timeout });
    await page.getByLabel('Email').fill(email, { timeout });
    await page.getByLabel('Password').and(page.locator('input')).fill(PASSWORD, { timeout });
    await page.getByRole('button', { name: 'Create account' }).click({ timeout });
  });
  await visible(tab, 'the signed-in navigation after sign-up', mainNavigation(page));
}

const mainNavigation = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** The navigation's pages as the studio renders them (label and path), in order. */
export async function navigationPages(page: Page): Promise<{ label: string; path: string }[]> {
  const links = mainNavigation(page).getByRole('link');
  const found: { label: string; path: string }[] = [];
  for (const link of await links.all()) {
    found.push({ label: (await link.innerText()).trim(), path: new URL((await link.getAttribute('href'))!, 'http://studio').pathname });
  }
  return found;
}

/**
 * Opens a page from the navigation as a person would and waits for its own title (the old page stays
 * on screen while a page's chunk loads, so the address alone says too little), then lets it settle.
 */
export async function openFromNavigation(tab: StudioPage, label: string, path?: string): Promise<void> {
  const { page } = tab;
  await step(tab, `open ${label} from the navigation`, 15_000, (timeout) => mainNavigation(page).getByRole('link', { name: label, exact: true }).click({ timeout }));
  // 30 s: a bound for a failure, not a figure. With four jest workers on two cores a clean-clone run once
  // took over 15 s to reach New video from a job page (alone: under 6 s for the whole test).
  if (path) await step(tab, `the address of ${label}`, 30_000, (timeout) => page.waitForURL((url) => url.pathname === path, { timeout }));
  await visible(tab, `the ${label} page's title`, page.getByRole('heading', { level: 2, name: label, exact: true }));
  await settle(page);
}

/** The `Cookie` header that carries this browser's studio session. */
export async function sessionCookieHeader(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`no ${SESSION_COOKIE} cookie in the browser: not signed in`);
  return `${cookie.name}=${cookie.value}`;
}
