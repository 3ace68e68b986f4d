/**
 * A hosted reaction engine reports no face box: the stack finds the face on the stored clip (human, in
 * process) and keeps it as the job's reaction.face_box, which the caption keeps clear of; a clip that
 * shows no face, also on the second try, fails the job with no_face_in_result and charges nothing.
 * The engine here is a stand-in behind the port that behaves like a hosted one: it serves the run's
 * canonical clip (a drawn face) without saying where the face is, or, asked for a "faceless"
 * reaction, a plain colour clip.
 */
import { promises as fsp } from 'node:fs';
import { CanonicalClipEngine } from '#test-doubles/canonical-clip-engine';
import type { ReactionEngine } from '#ports/engine';
import { plainColourClip } from '#test-support/plain-clip';
import { startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { productWithDemo, waitForJob } from '#test-support/jobs';

let t: TestStack;
let plain: { file: string; dir: string };
const seeds: number[] = [];

beforeAll(async () => {
  plain = await plainColourClip();
  t = await startTestStack({
    adjustDependencies: (built) => {
      const canonical = new CanonicalClipEngine(built.blobs);
      const hosted: ReactionEngine = {
        name: 'hosted-stand-in',
        async reactionFromPrompt(avatar, prompt, options) {
          seeds.push(options.seed);
          const { faceBox: _drawnHere, ...clip } = await canonical.reactionFromPrompt(avatar, prompt, options);
          if (prompt.includes('faceless')) await built.blobs.putFile(options.outputKey, plain.file, 'video/mp4');
          // A hosted engine encodes no caption and cuts no poster: compose does both.
          return { ...clip, engine: 'hosted-stand-in', captioned: null, poster: null };
        },
        reactionFromMotion: (avatar, key, options) => hosted.reactionFromPrompt(avatar, '', options),
      };
      return { ...built, engines: Object.assign(Object.create(built.engines) as typeof built.engines, { reaction: async () => hosted }) };
    },
  });
}, 120_000);
afterAll(async () => {
  await t?.stop();
  await fsp.rm(plain?.dir ?? '', { recursive: true, force: true });
});

const allowance = async (api: ApiClient) => (await api.get('/usage')).body.data.allowance as { used: number; reserved: number };

test("a hosted clip's face is found and kept as the reaction's face_box; the preview's caption keeps clear of it", async () => {
  const { accountId, api } = await t.newAccount();
  const product = await productWithDemo(api, () => t.stack.tasks.idle());
  const created = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'shocked by the price', hook_text: 'POV: it works' });
  expect(created.status).toBe(202);
  await waitForJob(api, created.body.data.id, ['preview_ready']);
  const job = await t.stack.dependencies.jobs.get(accountId, created.body.data.id);
  const box = job?.reaction?.face_box;
  expect(job?.reaction?.engine).toBe('hosted-stand-in');
  expect(box).toEqual({ x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) });
  expect(box!.x + box!.width).toBeLessThanOrEqual(1080);
  expect(box!.y + box!.height).toBeLessThanOrEqual(1920);
  expect(box!.width).toBeGreaterThan(100);
  expect(job?.preview?.caption).toMatchObject({ text: 'POV: it works', avoid: box });
}, 180_000);

test('a hosted clip that shows no face, also with another seed, fails the job with no_face_in_result and charges nothing', async () => {
  const { api } = await t.newAccount();
  const product = await productWithDemo(api, () => t.stack.tasks.idle());
  const before = seeds.length;
  const created = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'auto', prompt: 'faceless and shocked', hook_text: 'POV' });
  expect(created.status).toBe(202);
  const { job } = await waitForJob(api, created.body.data.id, ['failed']);
  expect(job.error).toEqual({ code: 'no_face_in_result', message: expect.stringMatching(/none showed a face; nothing was charged/) });
  expect(job.charged_units).toBe(0);
  expect(new Set(seeds.slice(before)).size).toBe(2);
  expect(await allowance(api)).toMatchObject({ used: 0, reserved: 0 });
}, 180_000);
