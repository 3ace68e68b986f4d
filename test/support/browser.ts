/**
 * A real browser for the studio's tests, screenshots and bench: Debian's Chromium driven by
 * playwright-core (no downloaded browser), headless, with nothing that reaches out on its own, and a
 * fresh profile each launch. axe-core checks a page's accessibility in that browser.
 */
import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** CI installs Chromium with apt-get; CHROMIUM_PATH points elsewhere when it lives elsewhere. */
function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(path)) {
    // A missing browser fails the run: skipping would pass the studio's checks without running them.
    throw new Error(`Chromium is not at ${path}: install it (apt-get install chromium) or set CHROMIUM_PATH to its executable`);
  }
  return path;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The sizes the studio is checked at: a laptop's, and a phone's (an iPhone 14's CSS pixels). */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export interface StudioBrowser {
  browser: Browser;
  /** A new context is a new profile: no cookies, storage or cache from another. */
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<StudioBrowser> {
  // playwright-core gives each launch its own temporary user-data-dir and removes it on close.
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  return {
    browser,
    newContext: () => browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'en-US', timezoneId: 'UTC' }),
    close: () => browser.close(),
  };
}

/** What a page printed or threw, for a failure message (a blank page is usually one of these). */
export function watchConsole(page: Page): () => string[] {
  const lines: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') lines.push(`console.${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => lines.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // Aborted: the page moved on (a chunk preloaded for a page that was left); not a failure.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') lines.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`);
  });
  return () => [...lines];
}

/**
 * Lets a page's first reads answer and their loaders go. A page that polls while work runs is never
 * quiet for long, so this waits a bounded while and goes on.
 */
export async function settle(page: Page, timeoutMs = 5_000): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: timeoutMs }).catch(() => undefined);
  await page
    .locator('.mantine-Loader-root')
    .first()
    .waitFor({ state: 'hidden', timeout: timeoutMs })
    .catch(() => undefined);
}

/** How wide the page's content is: wider than the viewport means a person scrolls sideways, or misses what is cut off. */
export function contentWidth(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
}

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; failureSummary?: string; html: string }[];
}

let axeSource: string | undefined;

/**
 * Waits until no finite animation or transition runs (a notification fading in, a drawer sliding):
 * axe reads colours as they are drawn, and text mid-fade is paler than any person reads it. Endless
 * ones (a loader's spin) are not waited for.
 */
async function finiteAnimationsDone(page: Page, timeoutMs = 5_000): Promise<void> {
  await page.waitForFunction(
    () => {
      type Running = { playState: string; effect: { getComputedTiming(): { endTime?: number | string } } | null };
      const { document } = globalThis as unknown as { document: { getAnimations(): Running[] } };
      return document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity);
    },
    undefined,
    { timeout: timeoutMs },
  );
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script is evaluated
 * through the DevTools protocol, which the studio's Content-Security-Policy (script-src 'self')
 * does not govern, so the page is checked under its real policy.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await finiteAnimationsDone(page);
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const injected = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!injected) await page.evaluate(`${axeSource}\n;void 0`);
  const violations = await page.evaluate(async () => {
    // Runs in the page; this project's TypeScript has no DOM library, so the page's globals are typed here.
    const { axe, document } = globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> }; document: unknown };
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, helpUrl, nodes }) => ({
      id,
      impact: impact ?? 'unknown',
      help,
      helpUrl,
      nodes: nodes.map(({ target, failureSummary, html }) => ({ target: target.map(String), failureSummary, html })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export interface PageViolations {
  /** The page, as the report names it, e.g. "Products (/products)". */
  where: string;
  violations: AxeViolation[];
}

/**
 * The violations of several pages, each element once with the pages it is on (the shell's header and
 * navigation are on every page), or '' when there are none. For an assertion message.
 */
export function describeViolations(pages: PageViolations[]): string {
  const byElement = new Map<string, { violation: AxeViolation; node: AxeViolation['nodes'][number]; on: string[] }>();
  for (const { where, violations } of pages) {
    for (const violation of violations) {
      for (const node of violation.nodes) {
        const key = `${violation.id} ${node.target.join(' ')}`;
        const seen = byElement.get(key) ?? { violation, node, on: [] };
        seen.on.push(where);
        byElement.set(key, seen);
      }
    }
  }
  return [...byElement.values()]
    .map(({ violation: v, node, on }) =>
      [
        `[${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`,
        `  element: ${node.target.join(' ')}  ${node.html.slice(0, 160)}`,
        `  on: ${on.join(', ')}`,
        ...(node.failureSummary ?? '').split('\n').map((line) => `  ${line.trim()}`),
      ].join('\n'),
    )
    .join('\n');
}
