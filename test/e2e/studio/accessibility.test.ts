/**
 * The studio for everyone, in Chromium, at a laptop's 1280×800 and a phone's 390×844: axe-core on
 * sign-in, sign-up and every page of the navigation as a new account sees it (with an API key and a
 * product, so the tables have rows: on a phone they are cards), nothing wider than the phone's screen,
 * "Skip to content" first for the keyboard, a wrong password called that, and a demo file refused in
 * the browser before a byte is sent. Serious and critical violations fail. The pages with a job and a
 * video on them are checked along the journey (journey.test.ts). One stack and one browser for the
 * whole suite.
 */
import { join } from 'node:path';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Locator, Page } from 'playwright-core';
import { runFfmpeg } from '#render';
import { axeViolations, contentWidth, describeViolations, settle, VIEWPORTS, type PageViolations } from '#test-support/browser';
import { navigationPages, openFromNavigation, signUp, startStudioStack, step, visible, type StudioPage, type StudioStack } from '#test-support/studio-stack';

let studio: StudioStack;
let tab: StudioPage;
let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'rs-studio-a11y-'));
  // Every page loaded at two sizes in a minute or two, far faster than a person: past the contract's 120 requests a minute.
  studio = await startStudioStack({ rateLimitPerMinute: 600 });
  tab = await studio.openPage();
}, 240_000);
afterAll(async () => {
  await studio?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 60_000);

type Size = keyof typeof VIEWPORTS;

/** axe on the page as it is, and at phone size its content as wide as the screen at most. */
async function check(page: Page, where: string, size: Size): Promise<PageViolations & { width: number }> {
  await settle(page);
  return { where: `${where} at ${VIEWPORTS[size].width}×${VIEWPORTS[size].height}`, violations: await axeViolations(page), width: await contentWidth(page) };
}

function expectClean(checked: (PageViolations & { width: number })[]): void {
  const report = describeViolations(checked);
  if (report) throw new Error(`axe found serious or critical violations:\n${report}`);
  const tooWide = checked.filter((c) => c.where.includes(` at ${VIEWPORTS.phone.width}×`) && c.width > VIEWPORTS.phone.width);
  expect(tooWide.map((c) => `${c.where}: ${c.width} px wide`)).toEqual([]);
}

const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in' });

test('sign-in and sign-up, on a laptop and on a phone: no serious or critical violation, nothing wider than the screen', async () => {
  const { page } = tab;
  const checked = [];
  for (const size of ['desktop', 'phone'] as const) {
    await page.setViewportSize(VIEWPORTS[size]);
    await page.goto(`${studio.baseUrl}/`);
    await visible(tab, 'the sign-in form', signInButton(page));
    checked.push(await check(page, 'sign-in', size));
    await page.goto(`${studio.baseUrl}/sign-up`);
    await visible(tab, 'the sign-up form', page.getByRole('button', { name: 'Create account' }));
    checked.push(await check(page, 'sign-up', size));
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  expectClean(checked);
}, 90_000);

/** The element the keyboard is on: its tag, id and text, and whether it is on the screen. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const { document, innerWidth, innerHeight } = globalThis as unknown as {
      document: { activeElement: { tagName: string; id: string; textContent: string | null; getBoundingClientRect(): { top: number; left: number; bottom: number; right: number } } | null };
      innerWidth: number;
      innerHeight: number;
    };
    const element = document.activeElement;
    if (!element) return null;
    const box = element.getBoundingClientRect();
    return { tag: element.tagName, id: element.id, text: element.textContent?.trim() ?? '', onScreen: box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth };
  });

test('a wrong password is called that, not "sign in again"', async () => {
  const { page } = tab;
  await page.goto(`${studio.baseUrl}/`);
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').and(page.locator('input')).fill('not the password at all');
  await step(tab, 'send the sign-in form', 15_000, (timeout) => signInButton(page).click({ timeout }));
  await visible(tab, 'the refusal', page.getByRole('alert').filter({ hasText: 'Wrong email or password' }));
});

test('the first Tab on a page reaches "Skip to content", shown when focused; it moves the keyboard into the main region', async () => {
  const { page } = tab;
  const skipsOn = async (where: string) => {
    await step(tab, `${where}: Tab`, 15_000, () => page.keyboard.press('Tab'));
    expect(await focused(page)).toEqual({ tag: 'A', id: '', text: 'Skip to content', onScreen: true });
    await step(tab, `${where}: follow the skip link`, 15_000, () => page.keyboard.press('Enter'));
    expect(await focused(page)).toMatchObject({ tag: 'MAIN', id: 'main' });
  };
  await page.goto(`${studio.baseUrl}/`);
  await visible(tab, 'the sign-in form', signInButton(page));
  // Out of sight until focused.
  expect(await page.getByRole('link', { name: 'Skip to content' }).evaluate((link) => (link as unknown as { getBoundingClientRect(): { bottom: number } }).getBoundingClientRect().bottom <= 0)).toBe(true);
  await skipsOn('sign-in');
  await signUp(studio, tab, `axe-${Date.now()}@example.com`);
  await page.goto(`${studio.baseUrl}/products`);
  await visible(tab, 'the Products page', page.getByRole('heading', { level: 2, name: 'Products' }));
  await skipsOn('Products');
  // From inside the page, the next Tab goes on there, past the header and the navigation.
  await page.keyboard.press('Tab');
  expect(await focused(page)).toMatchObject({ text: 'New product' });
}, 90_000);

const PRODUCT = 'Night cream';

test('every page of the navigation, with a key and a product, on a laptop and on a phone: no serious or critical violation, nothing wider than the screen', async () => {
  const { page } = tab;
  // Rows for the Keys and Products tables, which are cards on a phone.
  await openFromNavigation(tab, 'Settings', '/settings');
  await page.getByLabel('Name').fill('Phone check');
  await step(tab, 'create the key', 15_000, (timeout) => page.getByRole('button', { name: 'Create key' }).click({ timeout }));
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await step(tab, 'close the new key', 15_000, async (timeout) => {
    await shown.getByRole('button', { name: 'Done' }).click({ timeout });
    await shown.waitFor({ state: 'hidden', timeout });
  });
  await openFromNavigation(tab, 'Products', '/products');
  await step(tab, 'add a product without a demo', 15_000, async (timeout) => {
    await page.getByRole('button', { name: 'New product' }).click({ timeout });
    const form = page.getByRole('dialog', { name: 'New product' });
    await form.getByLabel('Name').fill(PRODUCT, { timeout });
    await form.getByRole('button', { name: 'Create product' }).click({ timeout });
    await form.waitFor({ state: 'hidden', timeout });
  });

  const pages = await navigationPages(page);
  expect(pages.map((p) => p.label)).toEqual(expect.arrayContaining(['New video', 'Products', 'Usage', 'Settings']));
  const checked = [];
  for (const { label, path } of pages) {
    await openFromNavigation(tab, label, path);
    checked.push(await check(page, `${label} (${path})`, 'desktop'));
  }
  // A phone shows the navigation behind its menu button: each page is opened at its address.
  await page.setViewportSize(VIEWPORTS.phone);
  try {
    for (const { label, path } of pages) {
      await page.goto(`${studio.baseUrl}${path}`);
      await visible(tab, `the ${label} page's title on a phone`, page.getByRole('heading', { level: 2, name: label, exact: true }));
      checked.push(await check(page, `${label} (${path})`, 'phone'));
    }
    // The tables are cards: the row's cells one under the other, the status words in full.
    await page.goto(`${studio.baseUrl}/products`);
    const card = page.getByRole('row').filter({ hasText: PRODUCT });
    await visible(tab, 'the product as a card', card);
    const box = (locator: Locator) => locator.boundingBox();
    const [name, added] = [await box(card.getByRole('cell').first()), await box(card.getByRole('cell').last())];
    expect(added!.y).toBeGreaterThan(name!.y + name!.height - 1);
    expect(await card.getByText('no demo', { exact: true }).isVisible()).toBe(true);
  } finally {
    await page.setViewportSize(VIEWPORTS.desktop);
  }
  expect(checked).toHaveLength(pages.length * 2);
  expectClean(checked);
}, 240_000);

/** A short clip of the given size, as a person would have it on disk. */
async function clip(name: string, size: string): Promise<string> {
  const file = join(workDir, name);
  await runFfmpeg(['-f', 'lavfi', '-i', `testsrc2=s=${size}:r=30:d=1`, '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '35', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', file], { timeoutMs: 60_000 });
  return file;
}

/** Drops the file on `target` as a person drags it from their desktop. */
async function dropFile(page: Page, target: Locator, path: string): Promise<void> {
  const name = path.split('/').pop()!;
  const bytes = (await readFile(path)).toString('base64');
  const transfer = await page.evaluateHandle(
    ({ bytes, name }) => {
      const { DataTransfer, File, atob } = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
        atob(data: string): string;
      };
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0))], name, { type: 'video/mp4' }));
      return transfer;
    },
    { bytes, name },
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer: transfer });
}

test('a demo dropped on the field is checked in the browser and nothing is sent: one too small is refused in words, a landscape one taken with the choice of how to make it portrait, a portrait one taken as it is', async () => {
  const { page } = tab;
  const [tiny, landscape, portrait] = await Promise.all([clip('tiny.mp4', '180x320'), clip('wide.mp4', '640x360'), clip('tall.mp4', '360x640')]);
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET') sent.push(`${request.method()} ${request.url()}`);
  });
  await openFromNavigation(tab, 'Products', '/products');
  await step(tab, 'open the new-product form', 15_000, (timeout) => page.getByRole('button', { name: 'New product' }).click({ timeout }));
  const form = page.getByRole('dialog', { name: 'New product' });
  const field = form.getByRole('button', { name: 'Demo video', exact: true });
  await visible(tab, 'the demo field', field);
  // The limits are stated before anything is chosen, WebM among the formats.
  await visible(tab, "the demo field's limits", form.getByText(/MP4, MOV, AVI or WebM; portrait, or landscape and square ones reframed to 9:16; at most 50 MB; up to 3 minutes of it kept/));

  await dropFile(page, field, tiny);
  await visible(tab, 'the refusal', form.getByText('“tiny.mp4” is 180×320: a demo video must be at least 240 px on each side.', { exact: false }));
  expect(await field.innerText()).not.toContain('tiny.mp4');

  await dropFile(page, field, landscape);
  await visible(tab, 'the landscape clip chosen', field.getByText('wide.mp4'));
  const reframe = form.getByRole('radiogroup', { name: 'Make it portrait' });
  await visible(tab, 'the choice of how to make it portrait', reframe);
  await visible(tab, 'what the browser read of its shape', form.getByText('This clip is landscape (640×360); reaction videos are portrait, 9:16.'));
  expect(await reframe.getByRole('radio', { name: /Blur the sides/ }).isChecked()).toBe(true);
  const violations = await axeViolations(page);
  const report = describeViolations([{ where: 'the new-product form with a landscape demo', violations }]);
  if (report) throw new Error(`axe found serious or critical violations:\n${report}`);

  await dropFile(page, field, portrait);
  await visible(tab, 'the portrait clip chosen', field.getByText('tall.mp4'));
  expect(await reframe.count()).toBe(0);
  // The trim fields are there for any demo.
  await visible(tab, 'the trim fields', form.getByLabel('Start at (s)'));
  // Files go to storage only when the form is sent: checking them sent nothing.
  expect(sent).toEqual([]);
  await step(tab, 'cancel the form', 15_000, (timeout) => form.getByRole('button', { name: 'Cancel' }).click({ timeout }));
}, 90_000);
