/**
 * The studio's journey (issue 12) in Chromium against a local stack: sign up, make an API key in
 * Settings and use it, add a product with a demo video through the page's upload, make a preview job
 * from a prompt, read what Regenerate would send with another sound and a voice line, approve it,
 * play the finished video, pick a music track (its preview plays) and a voice line for another video
 * and read the request, check every page with data on it with axe, revoke the key, sign out. Each step builds on the one before; after a failure the later steps
 * report that they did not run instead of failing for the same reason again.
 */
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Locator } from 'playwright-core';
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

const SIGN_UP = 'sign up in the studio';
const KEY = 'Settings: create an API key, read it once from the dialog, and use it from Node';
const PRODUCT = 'Products: a product with a demo video uploaded from the page becomes ready';
const VIDEO = 'New video: a preview from a prompt, approved, ends in a finished video that plays';

journey(SIGN_UP, [], 60_000, async () => {
  await signUp(studio, tab, `journey-${Date.now()}@example.com`);
  await visible(tab, 'the signed-in address in the header', tab.page.getByText(/journey-\d+@example\.com/));
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
  await step(tab, 'connect Provider A (its sandbox)', 30_000, async (timeout) => {
    await page.getByRole('button', { name: 'Connect Provider A' }).click({ timeout });
    const connect = page.getByRole('dialog', { name: 'Connect Provider A' });
    await connect.getByLabel('API key').fill('sandbox_a_journey', { timeout });
    await connect.getByRole('button', { name: 'Connect', exact: true }).click({ timeout });
    await connect.waitFor({ state: 'hidden', timeout });
  });
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
