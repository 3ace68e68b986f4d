/**
 * With a hosted avatar engine, generation outlasts the request: POST answers 202 `processing` and the
 * avatar completes in the background. The engine here is a stand-in behind the port that behaves
 * like a hosted one (it is not named `local`), so the API takes the background path.
 */
import sharp from 'sharp';
import { EngineError, type AvatarEngine } from '#ports/engine';
import { expectError, startTestStack, type TestStack } from '#test-support/local-stack';
import { realFacePng } from '#bench/reference-clip';

let t: TestStack;
/** Each generation waits at the gate until the test lets it through. */
let gate: { started: Promise<void>; markStarted: () => void; release: () => void; released: Promise<void> };
function newGate() {
  let markStarted!: () => void;
  let release!: () => void;
  const started = new Promise<void>((r) => (markStarted = r));
  const released = new Promise<void>((r) => (release = r));
  gate = { started, markStarted, release, released };
}
async function letGenerationFinish() {
  await gate.started;
  gate.release();
  await t.stack.tasks.idle();
}

const slowHostedEngine: AvatarEngine = {
  name: 'hosted-stand-in',
  async avatarFromPrompt(prompt, options) {
    gate.markStarted();
    await gate.released;
    if (prompt.includes('forbidden')) throw new EngineError('content_rejected', 'The prompt was flagged by the safety filter');
    // A portrait as a hosted model makes one: a real face on a plain wall; "faceless" asks for the wall alone.
    const face = prompt.includes('faceless') ? [] : [{ input: await sharp(await realFacePng()).resize(560, 560).png().toBuffer(), left: 104, top: 300 }];
    const png = await sharp({ create: { width: 768, height: 1344, channels: 3, background: '#8ac' } }).composite(face).png().toBuffer();
    await t.stack.dependencies.blobs.putBuffer(options.outputKey, png, 'image/png');
    return { image: { key: options.outputKey, contentType: 'image/png', sizeBytes: png.length }, width: 768, height: 1344, seed: options.seed, engine: 'hosted-stand-in' };
  },
};

beforeEach(() => newGate());
beforeAll(async () => {
  const hosted = async () => slowHostedEngine;
  t = await startTestStack({ adjustDependencies: (built) => ({ ...built, engines: { ...built.engines, avatar: hosted, inlineAvatar: hosted, avatarIsInline: false } }) });
});
afterAll(async () => {
  await t?.stop();
});

describe('prompt avatars with a hosted engine', () => {
  test('answer 202 processing, then turn ready with an image', async () => {
    const { api } = await t.newAccount();
    const res = await api.post('/avatars', { prompt: 'a chef with a moustache' });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'processing', image_url: null, source: 'prompt' });
    expect((await api.get(`/avatars/${res.body.data.id}`)).body.data.status).toBe('processing');
    await letGenerationFinish();
    const done = (await api.get(`/avatars/${res.body.data.id}`)).body.data;
    expect(done).toMatchObject({ status: 'ready', width: 768, height: 1344, image_url: expect.stringMatching(/^http/) });
  });

  test('a provider refusal ends in failed with an actionable error', async () => {
    const { api } = await t.newAccount();
    const res = await api.post('/avatars', { prompt: 'something forbidden here' });
    expect(res.status).toBe(202);
    await letGenerationFinish();
    const failed = (await api.get(`/avatars/${res.body.data.id}`)).body.data;
    expect(failed).toMatchObject({ status: 'failed', image_url: null, error: { code: 'content_rejected', message: expect.stringMatching(/safety/) } });
  });

  test('a portrait that shows no face ends in failed (no_face, as an upload without one), never ready', async () => {
    const { api } = await t.newAccount();
    const res = await api.post('/avatars', { prompt: 'a faceless silhouette' });
    expect(res.status).toBe(202);
    await letGenerationFinish();
    const failed = (await api.get(`/avatars/${res.body.data.id}`)).body.data;
    expect(failed).toMatchObject({ status: 'failed', image_url: null, error: { code: 'no_face', message: expect.stringMatching(/could not find a face in the generated portrait/) } });
  });

  test('an avatar deleted while generating stays deleted, and its image is not kept', async () => {
    const { api } = await t.newAccount();
    const res = await api.post('/avatars', { prompt: 'a surfer with long hair' });
    expect((await api.delete(`/avatars/${res.body.data.id}`)).status).toBe(200);
    await letGenerationFinish();
    expectError(await api.get(`/avatars/${res.body.data.id}`), 404, 'not_found');
  });
});
