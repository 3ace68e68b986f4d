/**
 * `npx tsx bin/studio-screenshots.ts [--out docs/studio]`: pictures of the studio's main pages at
 * 1280×800, and the jobs on a phone (390×844), for the docs. Starts its own local stack in a temp
 * folder, gives the demo account a product with a demo, a finished video posted through the
 * provider_a sandbox and a preview waiting for a decision, signs in with the demo login in headless
 * Chromium and saves one PNG per page.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import type { LocalStack } from '#local/runtime';
import { ensureStudioBuilt } from '#local/studio-build';
import { apiClient, productWithDemo, type ApiCall } from '#bench/stack-client';
import { launchBrowser, settle, VIEWPORTS } from '#test-support/browser';

const ROOT = resolve(__dirname, '..');
const log = (line: string) => console.log(line);

interface Job {
  status: string;
  video_id: number | null;
  error: unknown;
}

async function jobReaches(call: ApiCall, id: number, status: string, timeoutMs = 10 * 60_000): Promise<Job> {
  for (const until = Date.now() + timeoutMs; Date.now() < until; await new Promise((r) => setTimeout(r, 1_000))) {
    const job = (await call('GET', `/videos/jobs/${id}`)).body.data as Job;
    if (job.status === status) return job;
    if (job.status === 'failed') throw new Error(`job ${id} failed: ${JSON.stringify(job.error)}`);
  }
  throw new Error(`job ${id} did not reach ${status} in ${timeoutMs / 1000} s`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the seeding reads a few fields of answers the API tests check in full
async function ok(call: ApiCall, method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** What the pictures show: a product, a finished video posted to two channels, and a preview waiting. */
async function seed(stack: LocalStack, workDir: string): Promise<{ previewJobId: number }> {
  const call = apiClient(stack.apiUrl, stack.demo!.key);
  log('seeding: a product with a demo video');
  const { productId } = await productWithDemo(call, () => stack.tasks.idle(), workDir, 6);
  await ok(call, 'PATCH', `/products/${productId}`, { description: 'A vitamin C serum for a morning glow, for people who skip skincare.' });
  await ok(call, 'POST', '/products', { name: 'Night cream', description: 'Repairs while you sleep.' });
  log('seeding: a finished video and a preview (rendered on this machine)');
  const auto = await ok(call, 'POST', '/videos', { product_id: productId, method: 'prompt', mode: 'auto', prompt: 'a man in his 20s, surprised, then impressed', hook_text: 'I did not expect this' });
  const done = await jobReaches(call, auto.id, 'done');
  const preview = await ok(call, 'POST', '/videos', { product_id: productId, method: 'prompt', mode: 'preview', prompt: 'a woman in her 30s, shocked by the price, then delighted', hook_text: 'Wait for the glow' });
  await jobReaches(call, preview.id, 'preview_ready');
  log('seeding: the video posted through the provider_a sandbox, analytics synced');
  const connection = await ok(call, 'PUT', '/social/connections/provider_a', { api_key: 'sandbox_a_screenshots' });
  const channels = (connection.channels as { id: string; active: boolean }[]).filter((c) => c.active).map((c) => c.id);
  await ok(call, 'POST', '/social/posts', { provider: 'provider_a', video_id: done.video_id, account_ids: channels, caption: 'Morning glow in 10 seconds #skincare' });
  await new Promise((r) => setTimeout(r, 5_000));
  await call('POST', '/analytics/sync');
  return { previewJobId: preview.id };
}

/** Ready for a picture: its title shown, its reads answered, fonts loaded, no toast over it. */
async function ready(page: Page, title: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: title === 'Reaction Studio' ? 1 : 2, name: title }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await settle(page);
  await page.evaluate(() => (globalThis as unknown as { document: { fonts: { ready: Promise<unknown> } } }).document.fonts.ready);
  await page.mouse.move(0, 799);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs/studio' } } });
  const out = resolve(ROOT, values.out!);
  mkdirSync(out, { recursive: true });
  await ensureStudioBuilt(log);
  // The stack's structured logs would bury the script's few lines.
  (await import('#functions/logger')).logger.setLogLevel('SILENT');
  const { startLocalStack } = await import('#local/runtime');
  const dataDir = mkdtempSync(join(tmpdir(), 'rs-screenshots-'));
  const stack = await startLocalStack({ dataDir, port: 0 });
  const browser = await launchBrowser();
  try {
    const { previewJobId } = await seed(stack, dataDir);
    const baseUrl = stack.baseUrl.replace(/\/$/, '');
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const shots: string[] = [];
    const shoot = async (name: string) => {
      const file = join(out, `${name}.png`);
      await page.screenshot({ path: file });
      shots.push(file);
    };

    await page.goto(`${baseUrl}/`);
    await ready(page, 'Reaction Studio');
    await shoot('sign-in');
    await page.getByLabel('Email').fill(stack.demo!.login.email);
    await page.getByLabel('Password').and(page.locator('input')).fill(stack.demo!.login.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    await page.goto(`${baseUrl}/create`);
    await ready(page, 'New video');
    await page.getByRole('combobox', { name: 'Product' }).click();
    await page.getByRole('option', { name: 'Glow serum', exact: true }).click();
    await page.getByLabel('Reaction prompt').fill('a woman in her 30s, shocked by the price, then delighted');
    await page.getByLabel('Hook text').fill('Wait for the glow');
    await page.getByLabel('Hook text').blur();
    await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
    await page.mouse.move(0, 799);
    await shoot('create-video');

    await page.goto(`${baseUrl}/jobs/${previewJobId}`);
    // Named after its video: the product and the hook.
    await ready(page, /Wait for the glow/);
    // A frame of the reaction rather than a black box: seek into the preview and wait for it.
    await page.locator('video[aria-label="Preview"]').evaluate(
      (element) =>
        new Promise<void>((done) => {
          const media = element as unknown as { readyState: number; currentTime: number; addEventListener(type: string, listener: () => void, options: { once: boolean }): void };
          media.addEventListener('seeked', () => done(), { once: true });
          media.currentTime = 1.5;
        }),
    );
    await shoot('job-preview');

    for (const [name, path, title] of [
      ['videos', '/videos', 'Videos'],
      ['products', '/products', 'Products'],
      ['usage', '/usage', 'Usage'],
      ['settings', '/settings', 'Settings'],
      ['analytics', '/analytics', 'Analytics'],
    ] as const) {
      await page.goto(`${baseUrl}${path}`);
      await ready(page, title);
      await shoot(name);
    }
    // On a phone the lists are cards.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto(`${baseUrl}/jobs`);
    await ready(page, 'Jobs');
    await shoot('jobs-phone');
    for (const file of shots) log(`${relative(ROOT, file)}  ${(statSync(file).size / 1024).toFixed(0)} KB`);
  } finally {
    await browser.close();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
