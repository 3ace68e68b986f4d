/**
 * Test mode through the local stack: keys made live or test from a studio session, a test key's
 * video made on test data (marked `test: true`, watermarked TEST, no allowance used), and live and
 * test data kept apart both ways.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { renderOverlayPng } from '#render';
import { apiClient, expectError, startTestStack, type ApiClient, type ApiResponse, type TestStack } from '#test-support/local-stack';
import { download, frameAt, productWithDemo, waitForJob } from '#test-support/jobs';
import { makeTempDir } from '#test-support/media-fixtures';
const { min } = Math;

const JOB_TEST_MS = 180_000;
const FRAME_W = 1080;
/** Port 9 (discard) on loopback: nothing listens, a connection is refused at once. */
const DEAD_PROVIDER = 'http://127.0.0.1:9/api';

let t: TestStack;
let dir: string;
let session: { cookie: string; csrf: string };
let live: ApiClient;
let test_: ApiClient;

const api = () => apiClient(t.stack.apiUrl);
const fromSession = (method: string, path: string, json?: unknown): Promise<ApiResponse> =>
  api().send(method, path, { json, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });

beforeAll(async () => {
  // The live provider_a is configured at an address where nothing answers; its sandbox runs all the same.
  [t, dir] = await Promise.all([startTestStack({ sandboxes: { env: { PROVIDER_A_BASE_URL: DEAD_PROVIDER } } }), makeTempDir('test-mode-e2e-')]);
  const signedUp = await api().post('/auth/signup', { email: 'tess@example.com', password: 'correct horse battery', name: 'Tess' });
  expect(signedUp.status).toBe(201);
  session = { cookie: signedUp.headers.getSetCookie().find((c) => c.startsWith('rs_session='))!.split(';')[0]!, csrf: signedUp.body.data.csrf_token };
}, 60_000);

afterAll(async () => {
  await t?.stop();
  if (dir) await fsp.rm(dir, { recursive: true, force: true });
});

/**
 * How much of the TEST label, as the renderer draws it, a frame shows: of the label's solid pixels
 * (away from anti-aliased edges), the share of its letters that are white in the frame and the share
 * of its tab that is red, whichever is lower. A red background alone matches the tab, not the letters.
 */
async function labelMatch(rgb: Buffer): Promise<number> {
  const { png, box } = await renderOverlayPng(null, 'TEST');
  const template = await sharp(png).ensureAlpha().raw().toBuffer();
  const kindAt = (x: number, y: number): 'letter' | 'tab' | null => {
    const i = (y * FRAME_W + x) * 4;
    if (template[i + 3]! < 200) return null;
    if (template[i]! > 200 && template[i + 1]! > 200 && template[i + 2]! > 200) return 'letter';
    return template[i]! > 150 && template[i + 1]! < 100 ? 'tab' : null;
  };
  const tally = { letter: { solid: 0, matching: 0 }, tab: { solid: 0, matching: 0 } };
  for (let y = box.y + 2; y < box.y + box.height - 2; y++) {
    for (let x = box.x + 2; x < box.x + box.width - 2; x++) {
      const kind = kindAt(x, y);
      if (!kind || [kindAt(x + 2, y), kindAt(x - 2, y), kindAt(x, y + 2), kindAt(x, y - 2)].some((k) => k !== kind)) continue;
      const j = (y * FRAME_W + x) * 3;
      const [r, g, b] = [rgb[j]!, rgb[j + 1]!, rgb[j + 2]!];
      tally[kind].solid++;
      if (kind === 'letter' ? r > 180 && g > 180 && b > 180 : r > 150 && g < 100 && b < 130) tally[kind].matching++;
    }
  }
  return min(tally.letter.matching / tally.letter.solid, tally.tab.matching / tally.tab.solid);
}

/** Makes an auto video with `client` and answers the finished job, its video and the MP4's path. */
async function makeVideo(client: ApiClient, productId: number, name: string) {
  const res = await client.post('/videos', { product_id: productId, method: 'prompt', prompt: 'shocked by the price', hook_text: 'You will not believe this', hook_position: 'bottom' });
  expect(res.status).toBe(202);
  const { job } = await waitForJob(client, res.body.data.id, ['done']);
  const video = (await client.get(`/videos/${job.video_id}`)).body.data;
  const file = join(dir, `${name}.mp4`);
  expect((await download(video.url, file)).status).toBe(200);
  return { job, video, file };
}

describe('keys made live or test from the studio session', () => {
  test('a test key reads rsk_test_…, a live one rsk_… (live when no mode is said); GET /keys shows each mode', async () => {
    const testKey = await fromSession('POST', '/keys', { name: 'Sandbox', mode: 'test' });
    const liveKey = await fromSession('POST', '/keys', { name: 'Production' });
    expect(testKey.status).toBe(201);
    expect(testKey.body.data).toMatchObject({ mode: 'test', key: expect.stringMatching(/^rsk_test_[A-Za-z0-9_-]{43}$/), prefix: expect.stringMatching(/^rsk_test_/) });
    expect(liveKey.body.data).toMatchObject({ mode: 'live', key: expect.stringMatching(/^rsk_[A-Za-z0-9_-]{43}$/) });
    test_ = apiClient(t.stack.apiUrl, testKey.body.data.key);
    live = apiClient(t.stack.apiUrl, liveKey.body.data.key);
    const listed = (await fromSession('GET', '/keys')).body.data;
    expect(listed.map((k: { name: string; mode: string }) => [k.name, k.mode])).toEqual([
      ['Sandbox', 'test'],
      ['Production', 'live'],
    ]);
  });

  test.each([['sideways'], [''], [1], [null]])('mode %p is a 400 naming the mode field', async (mode) => {
    const refused = await fromSession('POST', '/keys', { name: 'Odd', mode });
    expectError(refused, 400, 'bad_request');
    expect(refused.body.param).toBe('mode');
  });
});

describe('a test key', () => {
  let testProduct: any;
  let liveProduct: any;

  beforeAll(async () => {
    const idle = () => t.stack.tasks.idle();
    [testProduct, liveProduct] = await Promise.all([productWithDemo(test_, idle, { name: 'Test serum' }), productWithDemo(live, idle, { name: 'Live serum' })]);
  }, 240_000);

  test(
    'makes a video on test data: every record test: true, nothing charged, the live allowance untouched, TEST burnt into the reaction and the demo',
    async () => {
      const usageBefore = (await live.get('/usage')).body.data.allowance;
      expect(testProduct.test).toBe(true);
      const { job, video, file } = await makeVideo(test_, testProduct.id, 'test');
      expect(job).toMatchObject({ test: true, charged_units: 0 });
      expect(video.test).toBe(true);
      expect((await live.get('/usage')).body.data.allowance).toEqual(usageBefore);
      expect((await test_.get('/usage')).body.data.allowance).toMatchObject({ used: 0, reserved: 0 });

      const reactionS = video.duration_s - testProduct.demo_video.duration_s;
      expect(await labelMatch(await frameAt(file, 1))).toBeGreaterThan(0.8);
      expect(await labelMatch(await frameAt(file, reactionS + 1))).toBeGreaterThan(0.8);
    },
    JOB_TEST_MS,
  );

  test(
    "a live key's video carries no label, is test: false and uses one unit",
    async () => {
      const usedBefore = (await live.get('/usage')).body.data.allowance.used as number;
      const { job, video, file } = await makeVideo(live, liveProduct.id, 'live');
      expect(job).toMatchObject({ test: false, charged_units: 1 });
      expect(video.test).toBe(false);
      expect((await live.get('/usage')).body.data.allowance.used).toBe(usedBefore + 1);
      // The same reaction clip as the test video's (its corner is reddish), without the label.
      expect(await labelMatch(await frameAt(file, 1))).toBeLessThan(0.3);
    },
    JOB_TEST_MS,
  );

  test('sees only test records and a live key only live ones: lists leave the others out, gets are 404', async () => {
    const names = async (client: ApiClient) => (await client.get('/products')).body.data.map((p: { name: string }) => p.name);
    expect(await names(test_)).toEqual(['Test serum']);
    expect(await names(live)).toEqual(['Live serum']);
    expectError(await live.get(`/products/${testProduct.id}`), 404, 'not_found');
    expectError(await test_.get(`/products/${liveProduct.id}`), 404, 'not_found');

    const [testJobs, liveJobs] = await Promise.all([test_.get('/videos/jobs'), live.get('/videos/jobs')]);
    expect(testJobs.body.data.map((j: { test: boolean }) => j.test)).toEqual([true]);
    expect(liveJobs.body.data.map((j: { test: boolean }) => j.test)).toEqual([false]);
    const [testJob, liveJob] = [testJobs.body.data[0], liveJobs.body.data[0]];
    expectError(await live.get(`/videos/jobs/${testJob.id}`), 404, 'not_found');
    expectError(await test_.get(`/videos/jobs/${liveJob.id}`), 404, 'not_found');
    expectError(await live.get(`/videos/${testJob.video_id}`), 404, 'not_found');
    expectError(await test_.get(`/videos/${liveJob.video_id}`), 404, 'not_found');
    // A live job cannot name a test product, nor a test job a live one.
    expectError(await live.post('/videos', { product_id: testProduct.id, method: 'prompt', prompt: 'shocked' }), 404, 'not_found');
    expectError(await test_.post('/videos', { product_id: liveProduct.id, method: 'prompt', prompt: 'shocked' }), 404, 'not_found');
  });

  test("works on the account's plan: GET /account answers the live account", async () => {
    const [fromTest, fromLive] = await Promise.all([test_.get('/account'), live.get('/account')]);
    expect(fromTest.status).toBe(200);
    expect(fromTest.body.data).toEqual(fromLive.body.data);
  });
});

describe("a test key's social calls", () => {
  test('go to the sandbox, whatever provider the stack is configured with; the live key reaches the configured one, and the connections are apart', async () => {
    const key = `sandbox_a_testmode_${process.pid}_abcdef`;
    const tested = await test_.put('/social/connections/provider_a', { api_key: key });
    expect(tested.status).toBe(201);
    expect(tested.body.data).toMatchObject({ provider: 'provider_a', status: 'active', channels: expect.arrayContaining([expect.objectContaining({ platform: 'tiktok' })]) });
    // The live key's call goes to the configured address, where nothing answers.
    expectError(await live.put('/social/connections/provider_a', { api_key: key }), 503, 'upstream_unavailable');
    expect((await live.get('/social/connections')).body.data).toEqual([]);
    expect((await test_.get('/social/connections')).body.data.map((c: { provider: string }) => c.provider)).toEqual(['provider_a']);
  });
});
