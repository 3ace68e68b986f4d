/**
 * The studio's journey (issues 12 and 28) in Chromium against a local stack: sign up and, as a new
 * account, reach finished videos from the first-run checklist (the sample product, a batch of three
 * variants from hook ideas, one approved and posted), change plan; then make an API key in
 * Settings and use it, add a product with a demo video through the page's upload, make a preview job
 * from a prompt, read what Regenerate would send with another sound and a voice line, approve it,
 * play the finished video, pick a music track (its preview plays) and a voice line for another video
 * and read the request, check every page with data on it with axe, revoke the key, sign out. Each step builds on the one before; after a failure the later steps
 * report that they did not run instead of failing for the same reason again.
 */
import { join, resolve } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Locator, Page } from 'playwright-core';
import { renderCaptionPng, runFfmpeg, typicalFaceBox } from '#render';
import { apiClient } from '#test-support/local-stack';
import { axeViolations, contentWidth, describeViolations, settle, VIEWPORTS, type PageViolations } from '#test-support/browser';
import {
  navigationPages,
  openFromNavigation,
  sessionCookieHeader,
  signUp,
  startStudioStack,
  step,
  visible,
  type StudioPage,
  type StudioStack,
} from '#test-support/studio-stack';

let studio: StudioStack;
let tab: StudioPage;
let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'rs-studio-journey-'));
  // The social sandboxes: "Post it" needs a connected provider to show the post form. The checks of
  // every page load 24 pages in a minute or two, far faster than a person: past the contract's 120
  // requests a minute.
  studio = await startStudioStack({ sandboxes: {}, rateLimitPerMinute: 600 });
  tab = await studio.openPage();
}, 240_000);
afterAll(async () => {
  await studio?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
}, 60_000);

const failed = new Set<string>();
/** A step of the journey; it runs only when the steps it needs passed, and says which did not otherwise. */
function journey(name: string, needs: string[], timeoutMs: number, run: () => Promise<void>) {
  test(
    name,
    async () => {
      const missing = needs.filter((need) => failed.has(need));
      if (missing.length) {
        const error = new Error(`not run: it needs ${missing.map((m) => `"${m}"`).join(' and ')}, which failed`);
        error.stack = error.message;
        failed.add(name);
        throw error;
      }
      try {
        await run();
      } catch (error) {
        failed.add(name);
        throw error;
      }
    },
    timeoutMs,
  );
}

const KEY_NAME = 'CI key';
const PRODUCT_NAME = 'Glow serum';
let rawKey: string;
let jobPath: string;
let videoPath: string;


/** Waits until `locator` is hidden; an alert shown inside it first ends the wait with its words. */
async function gone(locator: Locator, timeoutMs: number): Promise<void> {
  const problem = locator.getByRole('alert').first();
  for (const until = Date.now() + timeoutMs; Date.now() < until; await tab.page.waitForTimeout(250)) {
    if (!(await locator.isVisible())) return;
    if (await problem.isVisible()) throw new Error(`it shows: ${(await problem.innerText()).replace(/\s+/g, ' ')}`);
  }
  throw new Error('still shown');
}

/** A 4 s vertical clip with sound, as a phone records it: what a person uploads as a demo. */
async function demoClip(): Promise<string> {
  const file = join(workDir, 'demo.mp4');
  await runFfmpeg(
    ['-f', 'lavfi', '-i', 'testsrc2=s=360x640:r=30:d=4', '-f', 'lavfi', '-i', 'sine=f=440:r=44100:d=4', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', '-y', file],
    { timeoutMs: 60_000 },
  );
  return file;
}

/**
 * Waits for the job page's status to read `status`; "Failed" ends the wait at once with what the
 * page says went wrong. Rendering takes a minute or more on two busy cores.
 */
async function jobReaches(status: string, timeoutMs: number): Promise<void> {
  const badge = tab.page.getByTestId('job-status');
  await step(tab, `the job's status "${status}"`, timeoutMs, async (timeout) => {
    for (const until = Date.now() + timeout; Date.now() < until; await tab.page.waitForTimeout(500)) {
      const now = (await badge.count()) ? (await badge.innerText()).trim() : '';
      if (now.toLowerCase() === status.toLowerCase()) return;
      if (now.toLowerCase() === 'failed') throw new Error(`the job failed: ${(await tab.page.getByRole('main').innerText()).replace(/\s+/g, ' ').slice(0, 500)}`);
    }
    throw new Error(`the status still reads "${(await badge.count()) ? await badge.innerText() : 'nothing'}"`);
  });
}

/**
 * The JSON body the page POSTs to `url` when `send` is done, read and dropped before it reaches the API:
 * no job, no render on two busy cores.
 */
async function sentBody(what: string, url: string, send: (timeout: number) => Promise<void>): Promise<Record<string, unknown>> {
  const { page } = tab;
  let sent: Record<string, unknown> | undefined;
  // Answered with a refusal, not a dropped connection: the studio's client retries a POST that never
  // got an answer (it carries an Idempotency-Key), and a retry that went out after `unroute` made the
  // job for real and took the tab to its page while the next test was navigating.
  await page.route(url, (route) => {
    sent ??= route.request().postDataJSON() as Record<string, unknown>;
    return route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'Stopped by the test once the body was read', code: 'bad_request' }) });
  });
  try {
    await step(tab, what, 15_000, send);
    await step(tab, 'the request is sent', 15_000, async (timeout) => {
      for (const until = Date.now() + timeout; Date.now() < until && !sent; await page.waitForTimeout(100));
      if (!sent) throw new Error(`no POST ${url}`);
    });
  } finally {
    await page.unroute(url);
  }
  return sent!;
}

/** What the tests read of a <video> or <audio> in the page (this project's TypeScript has no DOM library). */
interface Media {
  error: { code: number; message: string } | null;
  readyState: number;
  duration: number;
  currentTime: number;
  muted: boolean;
  paused: boolean;
  play(): Promise<void>;
}

/** Waits until the <video> has loaded its metadata with a duration, then plays it (muted) past its start. */
async function expectPlays(what: string, video: Locator): Promise<{ duration: number; readyState: number }> {
  await visible(tab, what, video, 30_000);
  const handle = await video.elementHandle();
  await step(tab, `${what}: its metadata loads`, 30_000, (timeout) =>
    tab.page.waitForFunction((element) => {
      const media = element as unknown as Media;
      return media.error !== null || (media.readyState >= 1 && media.duration > 0);
    }, handle, { timeout }),
  );
  const state = await video.evaluate((element) => {
    const media = element as unknown as Media;
    return { error: media.error ? `${media.error.code} ${media.error.message}` : null, readyState: media.readyState, duration: media.duration };
  });
  expect({ what, error: state.error }).toEqual({ what, error: null });
  await video.evaluate((element) => {
    const media = element as unknown as Media;
    media.muted = true;
    return media.play();
  });
  await step(tab, `${what}: it plays`, 20_000, (timeout) => tab.page.waitForFunction((element) => (element as unknown as Media).currentTime > 0.2, handle, { timeout }));
  return state;
}

/**
 * Where the journey's pictures go: the run's work dir, so a test run leaves the tree as it was;
 * `RS_STUDIO_PICTURES=docs/studio` (docs/studio.md) writes them over the studio's docs instead.
 */
const picturesDir = () => (process.env.RS_STUDIO_PICTURES ? resolve(process.env.RS_STUDIO_PICTURES) : workDir);

/** The page at laptop and phone size: axe, nothing wider than the phone, and a picture of each in the docs. */
async function checkAtBothSizes(what: string, path: string, ready: (page: Page) => Locator, picture: string): Promise<void> {
  const { page } = tab;
  const checked: (PageViolations & { width: number })[] = [];
  try {
    for (const size of ['desktop', 'phone'] as const) {
      await page.setViewportSize(VIEWPORTS[size]);
      await page.goto(`${studio.baseUrl}${path}`);
      await visible(tab, `${what} at ${VIEWPORTS[size].width}×${VIEWPORTS[size].height}`, ready(page), 30_000);
      await settle(page);
      // Nothing hovered or focused: the picture and axe see the page at rest.
      await page.mouse.move(0, 0);
      checked.push({ where: `${what} at ${VIEWPORTS[size].width}×${VIEWPORTS[size].height}`, violations: await axeViolations(page), width: await contentWidth(page) });
      await page.screenshot({ path: join(picturesDir(), `${picture}${size === 'phone' ? '-phone' : ''}.png`) });
    }
  } finally {
    await page.setViewportSize(VIEWPORTS.desktop);
  }
  const report = describeViolations(checked);
  if (report) throw new Error(`axe found serious or critical violations:\n${report}`);
  expect(checked.filter((c) => c.where.includes(`at ${VIEWPORTS.phone.width}×`) && c.width > VIEWPORTS.phone.width).map((c) => `${c.where}: ${c.width} px`)).toEqual([]);
}

/** Connects Provider A through its sandbox on the Social page, unless it already is (the post form then shows). */
async function connectProviderA(): Promise<void> {
  const { page } = tab;
  // Exact: "Disconnect Provider A" is shown once connected.
  const connect = page.getByRole('button', { name: 'Connect Provider A', exact: true });
  const post = page.getByRole('region', { name: 'New post' });
  await visible(tab, 'the Social page, connected or not', connect.or(post).first());
  if (!(await connect.isVisible())) return;
  await step(tab, 'connect Provider A (its sandbox)', 30_000, async (timeout) => {
    await connect.click({ timeout });
    const dialog = page.getByRole('dialog', { name: 'Connect Provider A' });
    await dialog.getByLabel('API key').fill('sandbox_a_journey', { timeout });
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click({ timeout });
    await dialog.waitFor({ state: 'hidden', timeout });
  });
}

/** Waits until the combobox reads `expected` at its start (a chosen option's label). */
async function comboboxReads(what: string, combobox: Locator, expected: string): Promise<void> {
  await step(tab, what, 15_000, async (timeout) => {
    for (const until = Date.now() + timeout; !(await combobox.inputValue()).startsWith(expected); await tab.page.waitForTimeout(250)) {
      if (Date.now() > until) throw new Error(`it reads "${await combobox.inputValue()}"`);
    }
  });
}

const SIGN_UP = 'sign up in the studio';
const FIRST_RUN = 'New video, first run: the checklist with the stock avatars ticked, then "Try a sample product" opens the form with the sample chosen';
const BATCH = 'Variants: three hook ideas as one batch of previews, side by side on the batch page; one approved becomes a video';
const PLAN = 'Plans: an upgrade holds at once, a downgrade waits for the next period and says when';
let sampleName: string;
let hooks: string[];
let batchPath: string;
let approvedName: string;
const KEY = 'Settings: create an API key, read it once from the dialog, and use it from Node';
const PRODUCT = 'Products: a product with a demo video uploaded from the page becomes ready';
const VIDEO = 'New video: a preview from a prompt, approved, ends in a finished video that plays';

journey(SIGN_UP, [], 60_000, async () => {
  await signUp(studio, tab, `journey-${Date.now()}@example.com`);
  await visible(tab, 'the signed-in address in the header', tab.page.getByText(/journey-\d+@example\.com/));
});

journey(FIRST_RUN, [SIGN_UP], 180_000, async () => {
  const { page } = tab;
  await openFromNavigation(tab, 'New video', '/create');
  const checklist = page.getByRole('region', { name: 'Your first video in three steps' });
  await visible(tab, 'the first-run checklist', checklist);
  // The stock avatars are there from the start; nothing else is.
  expect(await checklist.getByRole('listitem').count()).toBe(3);
  for (const state of ['Add a product (to do)', 'Pick or make an avatar (done)', 'Make a video (to do)']) await visible(tab, `"${state}"`, checklist.getByText(state, { exact: true }));
  // The form waits for a product whose demo is ready: no "Create video" to press yet.
  expect(await page.getByRole('button', { name: 'Create video' }).count()).toBe(0);
  await checkAtBothSizes('New video, first run', '/create', () => checklist, 'first-run');

  await step(tab, 'try the sample product', 15_000, (timeout) => checklist.getByRole('button', { name: 'Try a sample product' }).click({ timeout }));
  // Its demo is ready at once, or in seconds on a stack that draws its sample clip for the first time.
  await visible(tab, 'the New video form', page.getByRole('button', { name: 'Create video' }), 120_000);
  const product = page.getByRole('combobox', { name: 'Product' });
  await step(tab, 'the sample product chosen in the form', 15_000, async (timeout) => {
    for (const until = Date.now() + timeout; !/\(sample\)$/.test(await product.inputValue()); await page.waitForTimeout(250)) {
      if (Date.now() > until) throw new Error(`the product field reads "${await product.inputValue()}"`);
    }
  });
  sampleName = await product.inputValue();
  await visible(tab, 'the product step ticked', checklist.getByText('Add a product (done)'));
  // Nothing typed: the units the form would spend, and what the month has.
  await visible(tab, 'the units left beside Create video', page.getByText('Uses 1 unit · 3 of 3 units left this month.'));
});

journey(BATCH, [FIRST_RUN], 600_000, async () => {
  const { page } = tab;
  await page.getByLabel('Reaction prompt').fill('a woman in her 30s, surprised, then delighted');
  await step(tab, 'choose the mode "Preview"', 15_000, (timeout) => page.locator('label').filter({ hasText: /^Preview$/ }).click({ timeout }));
  await step(tab, 'turn on "Make variants"', 15_000, (timeout) => page.getByRole('switch', { name: 'Make variants' }).check({ timeout }));
  await step(tab, 'ask for hook ideas', 15_000, (timeout) => page.getByRole('button', { name: 'Suggest hooks' }).click({ timeout }));
  const ideas = page.getByRole('group', { name: 'Hook ideas' });
  await visible(tab, 'the hook ideas', ideas, 30_000);
  const add = ideas.getByRole('button', { name: /^Add: / });
  hooks = [];
  for (let i = 0; i < 3; i++) {
    hooks.push((await add.nth(i).getAttribute('aria-label'))!.replace(/^Add: /, ''));
    await step(tab, `add hook idea ${i + 1}`, 15_000, (timeout) => add.nth(i).click({ timeout }));
  }
  const list = page.getByRole('list', { name: 'Variant hooks' });
  expect((await list.getByRole('listitem').allInnerTexts()).map((text) => text.trim())).toEqual(hooks.map((hook, i) => `${i + 1}. ${hook}`));
  await page.mouse.move(0, 0);
  await visible(tab, 'the batch and its units', page.getByText('Uses 3 units · 3 of 3 units left this month.'));
  // With no hook text of its own the preview shows the first variant's hook.
  await visible(tab, "the first hook's caption in the preview", page.getByTestId('caption-layer'), 30_000);
  await page.screenshot({ path: join(picturesDir(), 'variants.png') });

  await step(tab, 'create the three videos', 15_000, (timeout) => page.getByRole('button', { name: 'Create 3 videos' }).click({ timeout }));
  await step(tab, 'the batch page opens', 30_000, (timeout) => page.waitForURL(/\/batches\/\d+$/, { timeout }));
  batchPath = new URL(page.url()).pathname;
  await visible(tab, 'three previews to review', page.getByText('3 videos: 3 previews to review'), 480_000);
  // Side by side, each its own preview; "Play all" starts them together.
  for (const hook of hooks) await visible(tab, `the preview of "${hook}"`, page.getByRole('article', { name: `${sampleName} · ${hook}` }).locator('video'));
  await step(tab, 'play all the previews', 15_000, (timeout) => page.getByRole('button', { name: 'Play all' }).click({ timeout }));
  await step(tab, 'the three previews play together', 30_000, (timeout) =>
    page.waitForFunction(() => {
      const { document } = globalThis as unknown as { document: { querySelectorAll(selector: string): Iterable<Media> } };
      const videos = [...document.querySelectorAll('main video')];
      return videos.length === 3 && videos.every((video) => video.error === null && video.currentTime > 0.2);
    }, undefined, { timeout }),
  );
  await checkAtBothSizes('the batch page', batchPath, (p) => p.getByText('3 videos: 3 previews to review'), 'batch');

  approvedName = `${sampleName} · ${hooks[0]}`;
  const card = page.getByRole('article', { name: approvedName });
  await step(tab, 'approve the first variant', 15_000, (timeout) => card.getByRole('button', { name: `Approve ${approvedName}` }).click({ timeout }));
  await visible(tab, 'the first variant done', card.getByTestId('job-status').filter({ hasText: /^done$/i }), 300_000);
  await visible(tab, 'the others still waiting for a decision', page.getByText('3 videos: 2 previews to review, 1 done'));
});

journey('Post it from the batch: Social with the video chosen and its hook as the caption, posted through the sandbox', [BATCH], 90_000, async () => {
  const { page } = tab;
  await page.goto(`${studio.baseUrl}${batchPath}`);
  await step(tab, 'Post it', 15_000, (timeout) => page.getByRole('article', { name: approvedName }).getByRole('link', { name: `Post ${approvedName}` }).click({ timeout }));
  await step(tab, 'the Social page opens', 15_000, (timeout) => page.waitForURL(/\/social\?video_id=\d+$/, { timeout }));
  await connectProviderA();
  const post = page.getByRole('region', { name: 'New post' });
  await visible(tab, 'the post form', post);
  await comboboxReads('the video chosen', post.getByRole('combobox', { name: 'Video' }), approvedName);
  expect(await post.getByLabel('Caption').inputValue()).toBe(hooks[0]);
  // The channels come first among the form's checkboxes ("Save as a draft" is the last).
  await step(tab, 'choose a channel', 15_000, (timeout) => post.getByRole('checkbox').first().check({ timeout }));
  await step(tab, 'publish', 15_000, (timeout) => post.getByRole('button', { name: 'Publish now' }).click({ timeout }));
  await visible(tab, 'the post in the list', page.getByRole('table', { name: 'Posts' }).getByRole('row').filter({ hasText: approvedName }), 30_000);
});

journey(PLAN, [FIRST_RUN], 90_000, async () => {
  const { page } = tab;
  const cookie = await sessionCookieHeader(tab.context);
  const usage = async () => ((await (await fetch(`${studio.apiUrl}/usage`, { headers: { cookie } })).json()) as { data: { plan: { name: string; pending_plan: string | null }; allowance: { limit: number } } }).data;
  await openFromNavigation(tab, 'Plans', '/plans');
  const current = page.getByTestId('current-plan');
  await visible(tab, 'the plan in force', current.filter({ hasText: 'You are on the Free plan.' }));
  await step(tab, 'upgrade to Starter', 15_000, (timeout) => page.getByRole('button', { name: 'Upgrade to Starter' }).click({ timeout }));
  await visible(tab, 'Starter in force', current.filter({ hasText: /^You are on the Starter plan\.$/ }));
  expect(await usage()).toMatchObject({ plan: { name: 'starter', pending_plan: null }, allowance: { limit: 30 } });

  await step(tab, 'ask to downgrade to Free', 15_000, (timeout) => page.getByRole('button', { name: 'Downgrade to Free' }).click({ timeout }));
  await step(tab, 'confirm the downgrade', 15_000, (timeout) => page.getByRole('dialog', { name: 'Downgrade to Free?' }).getByRole('button', { name: 'Downgrade to Free' }).click({ timeout }));
  await visible(tab, 'the downgrade waiting, with its day', current.filter({ hasText: /It changes to Free on \d{1,2} \w+ \d{4}, when the next billing period starts/ }));
  await visible(tab, "the Free plan's row says from when", page.getByRole('row').filter({ hasText: /^Free/ }).getByText(/^From \d{1,2} \w+ \d{4}$/));
  // Starter holds until then.
  expect(await usage()).toMatchObject({ plan: { name: 'starter', pending_plan: 'free' }, allowance: { limit: 30 } });
  await checkAtBothSizes('the Plans page with a downgrade waiting', '/plans', (p) => p.getByTestId('current-plan').filter({ hasText: 'It changes to Free' }), 'plans');
});

journey(KEY, [SIGN_UP], 60_000, async () => {
  const { page } = tab;
  await openFromNavigation(tab, 'Settings');
  await page.getByLabel('Name').fill(KEY_NAME);
  await step(tab, 'create the key', 15_000, (timeout) => page.getByRole('button', { name: 'Create key' }).click({ timeout }));
  const shown = page.getByRole('dialog', { name: 'Your new API key' });
  await visible(tab, 'the dialog with the new key', shown);
  rawKey = await shown.getByLabel('API key').inputValue();
  expect(rawKey).toMatch(/^rsk_[A-Za-z0-9_-]{43}$/);
  expect((await apiClient(studio.apiUrl, rawKey).get('/usage')).status).toBe(200);
  await step(tab, 'close the dialog', 15_000, async (timeout) => {
    await shown.getByRole('button', { name: 'Done' }).click({ timeout });
    await shown.waitFor({ state: 'hidden', timeout });
  });
  await visible(tab, 'the new key in the list', page.getByRole('row').filter({ hasText: KEY_NAME }));
  // Shown once: nowhere on the page once the dialog is closed.
  expect(await page.content()).not.toContain(rawKey);
});

journey(PRODUCT, [SIGN_UP], 180_000, async () => {
  const { page } = tab;
  const clip = await demoClip();
  await openFromNavigation(tab, 'Products');
  await step(tab, 'open the new-product form', 15_000, (timeout) => page.getByRole('button', { name: 'New product' }).click({ timeout }));
  const form = page.getByRole('dialog', { name: 'New product' });
  await visible(tab, 'the new-product dialog', form);
  await form.getByLabel('Name').fill(PRODUCT_NAME);
  await step(tab, 'choose the demo video file', 15_000, async (timeout) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout }), form.getByRole('button', { name: 'Demo video' }).click({ timeout })]);
    await chooser.setFiles(clip);
  });
  // Checked in the browser first (a portrait clip of 4 s passes), then shown as chosen.
  await visible(tab, 'the demo video chosen', form.getByRole('button', { name: 'Demo video' }).getByText('demo.mp4'));
  await step(tab, 'send the new-product form', 15_000, (timeout) => form.getByRole('button', { name: 'Create product' }).click({ timeout }));
  await step(tab, 'the upload finishes and the dialog closes', 60_000, (timeout) => gone(form, timeout));
  const row = page.getByRole('row').filter({ hasText: PRODUCT_NAME });
  await visible(tab, 'the product in the list', row);
  await visible(tab, 'the demo video "ready"', row.getByText('ready', { exact: true }), 120_000);
});

journey(VIDEO, [PRODUCT], 480_000, async () => {
  const { page } = tab;
  // A segmented control's radio is drawn under its label, which is what a person clicks.
  const segment = (name: string) => page.locator('label').filter({ hasText: new RegExp(`^${name}$`) });
  await openFromNavigation(tab, 'New video');
  await step(tab, 'choose the product', 15_000, async (timeout) => {
    await page.getByRole('combobox', { name: 'Product' }).click({ timeout });
    await page.getByRole('option', { name: PRODUCT_NAME, exact: true }).click({ timeout });
  });
  await step(tab, 'choose the method "Prompt"', 15_000, (timeout) => segment('Prompt').click({ timeout }));
  await page.getByLabel('Reaction prompt').fill('a woman in her 30s, shocked by the price, then delighted');
  await step(tab, 'choose the mode "Preview"', 15_000, (timeout) => segment('Preview').click({ timeout }));
  expect(await page.getByRole('radio', { name: 'Preview', exact: true }).isChecked()).toBe(true);
  await page.getByLabel('Hook text').fill('Wait for the glow');
  await step(tab, 'choose the caption style "Box"', 15_000, (timeout) => segment('Box').click({ timeout }));
  // The preview is the API's drawing with the videos' own renderer (POST /captions/preview): byte for byte the layer a video gets.
  const expected = (await renderCaptionPng({ text: 'Wait for the glow', position: 'top', size: 'medium', style: 'box', avoid: typicalFaceBox() })).png;
  await step(tab, 'the caption preview shows the renderer\'s layer', 20_000, async (timeout) => {
    const layer = page.getByTestId('caption-layer');
    const deadline = Date.now() + timeout;
    for (;;) {
      const src = (await layer.count()) ? await layer.getAttribute('src') : null;
      if (src?.startsWith('data:image/png;base64,') && Buffer.from(src.slice(src.indexOf(',') + 1), 'base64').equals(expected)) return;
      if (Date.now() > deadline) throw new Error(`the caption layer shown is not the renderer's (src starts ${src?.slice(0, 40)})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  await step(tab, 'create the video', 15_000, (timeout) => page.getByRole('button', { name: 'Create video' }).click({ timeout }));
  await step(tab, 'the job page opens', 30_000, (timeout) => page.waitForURL(/\/jobs\/\d+$/, { timeout }));
  jobPath = new URL(page.url()).pathname;

  await jobReaches('Preview ready', 300_000);
  const preview = await expectPlays('the preview player', page.locator('video[aria-label="Preview"]').or(page.getByLabel('Preview', { exact: true }).locator('video')).first());
  expect(preview.duration).toBeGreaterThan(1);

  // Regenerate offers the job's sound and voice line, filled in from the job; the request is read, not run.
  await step(tab, 'open Regenerate', 15_000, (timeout) => page.getByRole('button', { name: 'Regenerate…' }).click({ timeout }));
  const regenerate = page.getByRole('dialog', { name: 'Regenerate the preview' });
  await visible(tab, 'the Regenerate dialog', regenerate);
  expect(await regenerate.getByLabel('Reaction prompt').inputValue()).toBe('a woman in her 30s, shocked by the price, then delighted');
  expect(await regenerate.getByRole('radio', { name: 'Auto', exact: true }).isChecked()).toBe(true);
  expect(await regenerate.getByLabel('Voice line').inputValue()).toBe('');
  await step(tab, 'choose the sound "Music" for the new take', 15_000, (timeout) => regenerate.locator('label').filter({ hasText: /^Music$/ }).click({ timeout }));
  await step(tab, 'choose the track "Soft Keys"', 15_000, (timeout) => regenerate.getByRole('radiogroup', { name: /Music track/ }).getByRole('radio', { name: 'Soft Keys' }).check({ timeout }));
  await regenerate.getByLabel('Voice line').fill('No way, look at that');
  const retake = await sentBody('ask for the new take', '**/api/v1/videos/jobs/*/regenerate', (timeout) => regenerate.getByRole('button', { name: 'Regenerate (1 unit)' }).click({ timeout }));
  // Only what changed: the prompt is the job's own, so it is not sent.
  expect(retake).toEqual({ sound: 'music', music_id: 'soft-keys', voice_line: 'No way, look at that' });
  await step(tab, 'close the Regenerate dialog', 15_000, async (timeout) => {
    await regenerate.getByRole('button', { name: 'Cancel' }).click({ timeout });
    await regenerate.waitFor({ state: 'hidden', timeout });
  });

  await step(tab, 'approve the preview', 15_000, async (timeout) => {
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await approve.click({ timeout });
    // Taken: the job runs again and the decision is gone from its page.
    await approve.waitFor({ state: 'hidden', timeout });
  });
  // Elsewhere in the studio while it is made: the studio says when it is done, in the page and in the tab's title.
  await openFromNavigation(tab, 'Products', '/products');
  const done = page.locator('.mantine-Notification-root').filter({ hasText: 'Your video is ready' });
  await visible(tab, 'the notification that the video is ready', done, 300_000);
  expect(await page.title()).toBe('(1) Job finished · Reaction Studio');
  await step(tab, "open the video from the notification", 15_000, (timeout) => done.getByRole('button', { name: 'Open' }).click({ timeout }));
  await step(tab, 'the video page opens', 15_000, (timeout) => page.waitForURL(/\/videos\/\d+$/, { timeout }));
  await step(tab, 'the title says nothing waits any more', 15_000, (timeout) => page.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title === 'Reaction Studio', undefined, { timeout }));
  videoPath = new URL(page.url()).pathname;
  // Named after its product and hook, here and in the file a download saves.
  await visible(tab, "the video's name", page.getByRole('heading', { level: 2, name: `${PRODUCT_NAME} · Wait for the glow` }));
  expect(await page.getByRole('link', { name: 'Download MP4' }).getAttribute('download')).toBe(`${PRODUCT_NAME} · Wait for the glow.mp4`);
  const finished = await expectPlays('the finished video', page.locator('video[aria-label="Finished video"]'));
  expect(finished.readyState).toBeGreaterThanOrEqual(1);
  expect(finished.duration).toBeGreaterThan(preview.duration);
});

journey('Post it: Social opens with the video chosen and its hook as the caption', [VIDEO], 60_000, async () => {
  const { page } = tab;
  await page.goto(`${studio.baseUrl}${videoPath}`);
  await step(tab, 'Post it', 15_000, (timeout) => page.getByRole('link', { name: 'Post it' }).click({ timeout }));
  await step(tab, 'the Social page opens', 15_000, (timeout) => page.waitForURL(/\/social\?video_id=\d+$/, { timeout }));
  // Connected already when the batch's video was posted.
  await connectProviderA();
  const post = page.getByRole('region', { name: 'New post' });
  await visible(tab, 'the post form', post);
  const video = post.getByRole('combobox', { name: 'Video' });
  await step(tab, 'the video chosen', 15_000, async (timeout) => {
    for (const until = Date.now() + timeout; !(await video.inputValue()).startsWith(`${PRODUCT_NAME} · Wait for the glow`); await page.waitForTimeout(250)) {
      if (Date.now() > until) throw new Error(`the video field reads "${await video.inputValue()}"`);
    }
  });
  expect(await post.getByLabel('Caption').inputValue()).toBe('Wait for the glow');
});

journey('New video: Music with a track that plays its preview, and a voice line, go into the request as sound=music and music_id', [PRODUCT], 120_000, async () => {
  const { page } = tab;
  const segment = (name: string) => page.locator('label').filter({ hasText: new RegExp(`^${name}$`) });
  await openFromNavigation(tab, 'New video');
  await step(tab, 'choose the product', 15_000, async (timeout) => {
    await page.getByRole('combobox', { name: 'Product' }).click({ timeout });
    await page.getByRole('option', { name: PRODUCT_NAME, exact: true }).click({ timeout });
  });
  await page.getByLabel('Reaction prompt').fill('a man, amazed, then laughing');
  await step(tab, 'choose the sound "Music"', 15_000, (timeout) => segment('Music').click({ timeout }));
  const tracks = page.getByRole('radiogroup', { name: /Music track/ });
  await visible(tab, 'the music tracks', tracks.getByRole('radio', { name: 'Sunny Pop' }));
  await visible(tab, "the account's own tracks, none yet", tracks.getByText('None yet: upload one below.'));

  // The preview plays in the page's one <audio>, through GET /music/{id}/audio and its redirect.
  await step(tab, 'play the preview of "Lo-fi Study"', 15_000, (timeout) => page.getByRole('button', { name: 'Play Lo-fi Study' }).click({ timeout }));
  // The first play renders the built-in track on the server, so it may take seconds to start. The
  // <audio> is hidden (the button is its control): it is read from the page, not waited on as a locator.
  await step(tab, 'the preview plays', 60_000, (timeout) =>
    page.waitForFunction(() => {
      const window = globalThis as unknown as { document: { querySelector(selector: string): Media | null } };
      const media = window.document.querySelector('audio');
      return media !== null && (media.error !== null || media.currentTime > 0.2);
    }, undefined, { timeout }),
  );
  expect(await page.locator('audio').evaluate((element) => (element as unknown as Media).error)).toBeNull();
  await step(tab, 'pause it', 15_000, (timeout) => page.getByRole('button', { name: 'Pause Lo-fi Study' }).click({ timeout }));
  expect(await page.locator('audio').evaluate((element) => (element as unknown as Media).paused)).toBe(true);

  await step(tab, 'choose the track "Lo-fi Study"', 15_000, (timeout) => tracks.getByRole('radio', { name: 'Lo-fi Study' }).check({ timeout }));
  await page.getByLabel('Voice line').fill('Wait, is that real?');
  const violations = await axeViolations(page);
  const report = describeViolations([{ where: 'New video with the music picker open', violations }]);
  if (report) throw new Error(`axe found serious or critical violations:\n${report}`);

  const sent = await sentBody('create the video', '**/api/v1/videos', (timeout) => page.getByRole('button', { name: 'Create video' }).click({ timeout }));
  expect(sent).toMatchObject({ method: 'prompt', prompt: 'a man, amazed, then laughing', sound: 'music', music_id: 'lofi-study', voice_line: 'Wait, is that real?' });
});

journey('every page, with a product, a job and a video on it, on a laptop and on a phone, has no serious or critical accessibility violations and nothing wider than the screen', [VIDEO], 300_000, async () => {
  const { page } = tab;
  const checked: (PageViolations & { width: number })[] = [];
  const check = async (where: string) => checked.push({ where, violations: await axeViolations(page), width: await contentWidth(page) });
  const pages = await navigationPages(page);
  const named = new RegExp(`^${PRODUCT_NAME} · Wait for the glow`);
  try {
    for (const size of ['desktop', 'phone'] as const) {
      await page.setViewportSize(VIEWPORTS[size]);
      const at = `at ${VIEWPORTS[size].width}×${VIEWPORTS[size].height}`;
      // By address: on a phone the navigation waits behind its menu button.
      for (const [title, path] of [...pages.map(({ label, path }) => [label, path] as const), [named, jobPath] as const, [named, videoPath] as const]) {
        await page.goto(`${studio.baseUrl}${path}`);
        await visible(tab, `the title of ${path} ${at}`, page.getByRole('heading', { level: 2, name: title, exact: typeof title === 'string' }));
        await settle(page);
        await check(`${path} ${at}`);
      }
    }
  } finally {
    await page.setViewportSize(VIEWPORTS.desktop);
  }
  expect(checked.length).toBeGreaterThanOrEqual(24);
  const report = describeViolations(checked);
  if (report) throw new Error(`axe found serious or critical violations:\n${report}`);
  const phone = VIEWPORTS.phone.width;
  expect(checked.filter((c) => c.where.includes(`at ${phone}×`) && c.width > phone).map((c) => `${c.where}: ${c.width} px`)).toEqual([]);
});

journey('Settings: a revoked key is refused; signing out ends the session', [KEY], 60_000, async () => {
  const { page } = tab;
  await openFromNavigation(tab, 'Settings');
  const row = page.getByRole('row').filter({ hasText: KEY_NAME });
  await visible(tab, 'the key in the list', row);
  await step(tab, 'ask to revoke the key', 15_000, (timeout) => row.getByRole('button', { name: 'Revoke' }).click({ timeout }));
  await step(tab, 'confirm revoking', 15_000, (timeout) => page.getByRole('dialog', { name: `Revoke ${KEY_NAME}?` }).getByRole('button', { name: 'Revoke' }).click({ timeout }));
  await visible(tab, 'the key shown as revoked', row.getByText('Revoked', { exact: true }));
  expect((await apiClient(studio.apiUrl, rawKey).get('/usage')).status).toBe(401);

  const cookie = await sessionCookieHeader(tab.context);
  const session = () => fetch(`${studio.apiUrl}/auth/session`, { headers: { cookie } });
  expect((await session()).status).toBe(200);
  await step(tab, 'sign out', 15_000, (timeout) => page.getByRole('button', { name: 'Sign out' }).click({ timeout }));
  await visible(tab, 'the sign-in form after signing out', page.getByRole('button', { name: 'Sign in' }));
  expect((await session()).status).toBe(401);
});
