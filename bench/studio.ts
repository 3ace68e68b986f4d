/**
 * The studio's first load: the JavaScript a visitor downloads before the first page can run
 * (the entry chunk and every chunk it imports statically, gzipped; the pages' lazy chunks are not
 * counted), and the time from navigation start to a usable page in headless Chromium on the local
 * stack, signed out (the sign-in button enabled) and signed in (the navigation shown), cold cache
 * each run.
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureStudioBuilt } from '#local/studio-build';
import { STUDIO_DIST } from '#local/studio-site';
import { SESSION_COOKIE } from '#domain/session';
import { launchBrowser } from '#test-support/browser';
import { flag, fmt, median, type SectionResult, type Table, type Target, type SectionOptions } from './report';

/** `runs`: page loads per case, each in a fresh browser context (no cache, no storage). */
export const STUDIO_DEFAULTS = { runs: 7 } as const;
export type StudioBenchOptions = SectionOptions<typeof STUDIO_DEFAULTS>;

const FIRST_LOAD_JS_MAX_KB = 200;

interface Chunk {
  file: string;
  bytes: number;
  gzipBytes: number;
}

const kb = (bytes: number) => bytes / 1024;
// zlib's default level, which is what `gzip` and most servers that compress on the fly use.
const gzipped = (data: Buffer) => gzipSync(data).length;

/** Static imports of a built chunk (`import{a}from"./x.js"`, `import"./x.js"`), not `import("./x.js")`. */
function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/\bimport\s*(?:[\w$\s{},*]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g)) found.add(match[1]!);
  return [...found];
}

/** The entry script and its static import graph, from index.html (modulepreload links included). */
function firstLoadChunks(dist = STUDIO_DIST): { js: Chunk[]; css: Chunk[]; lazy: Chunk[] } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  const entries = tags.filter((t) => /type="module"/.test(t) || /rel="modulepreload"/.test(t)).map((t) => attr(t, 'src') ?? attr(t, 'href')!);
  const styles = tags.filter((t) => /rel="stylesheet"/.test(t)).map((t) => attr(t, 'href')!);
  const chunk = (path: string): Chunk => {
    const data = readFileSync(join(dist, path));
    return { file: path.replace(/^\//, ''), bytes: data.length, gzipBytes: gzipped(data) };
  };
  const seen = new Set<string>();
  const queue = entries.map((e) => e.replace(/^\//, ''));
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    for (const imported of staticImports(code)) queue.push(join(file, '..', imported));
  }
  const js = [...seen].map(chunk);
  const lazy = readdirSync(join(dist, 'assets'))
    .filter((name) => name.endsWith('.js') && !seen.has(`assets/${name}`))
    .map((name) => chunk(`assets/${name}`));
  return { js, css: styles.map(chunk), lazy };
}

/** Marks when the page became usable, watched from the document's start (a DevTools script, not subject to the page's CSP). */
const USABLE_WATCH = `(() => {
  const usable = () =>
    [...document.querySelectorAll('button[type="submit"]')].some((b) => /Sign in/.test(b.textContent || '') && !b.disabled && !b.hasAttribute('data-loading')) ||
    !!document.querySelector('nav[aria-label="Main"] a');
  const mark = () => {
    if (window.__usableAt === undefined && usable()) window.__usableAt = performance.now();
  };
  new MutationObserver(mark).observe(document, { childList: true, subtree: true, attributes: true });
})();`;

async function timeToUsable(baseUrl: string, runs: number, cookie: { name: string; value: string } | undefined): Promise<number[]> {
  const browser = await launchBrowser();
  try {
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext();
      try {
        if (cookie) await context.addCookies([{ ...cookie, url: baseUrl }]);
        await context.addInitScript(USABLE_WATCH);
        const page = await context.newPage();
        await page.goto(`${baseUrl}/`);
        const what = cookie ? 'nav[aria-label="Main"] a' : 'the enabled Sign in button';
        await page
          .waitForFunction(() => (globalThis as { __usableAt?: number }).__usableAt !== undefined, undefined, { timeout: 30_000 })
          .catch(() => {
            throw new Error(`the studio showed no ${what} within 30 s of loading ${baseUrl}/`);
          });
        times.push(await page.evaluate(() => (globalThis as unknown as { __usableAt: number }).__usableAt));
      } finally {
        await context.close();
      }
    }
    return times;
  } finally {
    await browser.close();
  }
}

async function signInCookie(apiUrl: string, email: string, password: string): Promise<{ name: string; value: string }> {
  const response = await fetch(`${apiUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const set = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (response.status !== 200 || !set) throw new Error(`signing in the demo login answered ${response.status}`);
  return { name: SESSION_COOKIE, value: set.split(';')[0]!.slice(SESSION_COOKIE.length + 1) };
}

export async function runStudio(options: StudioBenchOptions): Promise<SectionResult> {
  const { log, runs } = options;
  const buildStarted = Date.now();
  // Built when a source is newer than studio/dist, as `npm start` does; the figures are of what is served.
  await ensureStudioBuilt(log);
  const buildS = (Date.now() - buildStarted) / 1000;
  const { js, css, lazy } = firstLoadChunks();
  const firstLoadKb = kb(js.reduce((sum, c) => sum + c.gzipBytes, 0));
  const cssKb = kb(css.reduce((sum, c) => sum + c.gzipBytes, 0));

  const { startLocalStack } = await import('#local/runtime');
  const dataDir = mkdtempSync(join(tmpdir(), 'rs-bench-studio-'));
  let signedOut: number[];
  let signedIn: number[];
  try {
    const stack = await startLocalStack({ dataDir, port: 0, log: () => undefined });
    try {
      const baseUrl = stack.baseUrl.replace(/\/$/, '');
      log(`${runs} cold loads signed out, then ${runs} signed in, on ${baseUrl}/`);
      signedOut = await timeToUsable(baseUrl, runs, undefined);
      signedIn = await timeToUsable(baseUrl, runs, await signInCookie(stack.apiUrl, stack.demo!.login.email, stack.demo!.login.password));
    } finally {
      await stack.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const targets: Target[] = [{ what: 'studio first-load JavaScript (gzip)', value: firstLoadKb, max: FIRST_LOAD_JS_MAX_KB, unit: 'KB' }];
  const sizes: Table = {
    title: `First load (build checked or made in ${fmt(buildS)} s)`,
    head: ['file', 'raw KB', 'gzip KB', 'target', ''],
    rows: [
      ...js.map((c) => [c.file, fmt(kb(c.bytes)), fmt(kb(c.gzipBytes)), '', '']),
      ['JavaScript, first load', fmt(kb(js.reduce((s, c) => s + c.bytes, 0))), fmt(firstLoadKb), `<= ${FIRST_LOAD_JS_MAX_KB}`, flag(targets[0]!)],
      ...css.map((c) => [`${c.file} (CSS, not counted)`, fmt(kb(c.bytes)), fmt(kb(c.gzipBytes)), '', '']),
    ],
  };
  const row = (name: string, times: number[]) => [name, String(times.length), fmt(median(times), 0), fmt(Math.min(...times), 0), fmt(Math.max(...times), 0)];
  const usable: Table = {
    title: 'Time to a usable page (navigation start to usable, headless Chromium, cold cache each run)',
    head: ['page', 'runs', 'median ms', 'min ms', 'max ms'],
    rows: [row('signed out: Sign in button enabled', signedOut), row('signed in: navigation shown', signedIn)],
  };
  const biggestLazy = [...lazy].sort((a, b) => b.gzipBytes - a.gzipBytes).slice(0, 3);
  return {
    tables: [sizes, usable],
    targets,
    notes: [
      `CSS on the first load: ${fmt(cssKb)} KB gzipped; ${lazy.length} lazy chunks load with their pages (largest: ${biggestLazy.map((c) => `${c.file.replace(/^assets\//, '')} ${fmt(kb(c.gzipBytes))} KB`).join(', ')}).`,
      'Loads are from the local stack on loopback: no network latency or bandwidth limit, so the time is parse, run and the first API call (GET /auth/session).',
    ],
    data: {
      buildS,
      firstLoadJsGzipKb: firstLoadKb,
      firstLoadCssGzipKb: cssKb,
      chunks: js,
      lazyChunks: lazy.length,
      usableMs: { signedOut, signedIn, signedOutMedian: median(signedOut), signedInMedian: median(signedIn) },
    },
  };
}
