/**
 * The fal.ai adapters behind the engine port, end to end on loopback: the queue double generates,
 * s3rver is the blob store. Inputs reach the double as presigned URLs it can fetch; results are
 * copied into the bucket (videos in the canonical encoding, cut to 5 s).
 */
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { createS3Client } from '#adapters/aws-clients';
import { falKeyProvider, type SecretProvider } from '#adapters/engines/credentials';
import { falSettingsFromEnv } from '#adapters/engines/fal/config';
import {
  createFalAvatarEngine,
  createFalReactionEngine,
  falAvatarEngine,
  type FalEngineOptions,
} from '#adapters/engines/fal/engine';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { DEFAULT_REGION } from '#functions/config';
import { canonicalMismatches, probeMedia, fileArg, runFfmpeg } from '#render';
import { mostActiveStart } from '#adapters/engines/fal/motion-reference';
import { EngineError, type AvatarRef } from '#ports/engine';
import type { ProviderRequest, ProviderRequestLog } from '#ports/engine';
import { ensureBucket } from '#local/provision';
import { sharedEndpoints, uniqueName } from '#test-support/services';
import { startFalDouble, type FalDouble } from '#test-doubles/fal-queue';
import { makeFixture } from '#test-support/media-fixtures';
import { jobErrorOf, toPipelineError } from '#pipeline/errors';
import { engineFailureToAppError } from '#use-cases/engine-failure';
import { RETRYABLE_ERROR } from '#pipeline/steps';

const BUCKET = uniqueName('fal-engine');
const AVATAR_KEY = 'avatars/1/image.png';
/** A 2 s MP4 with sound: under Kling's 3 s minimum. */
const REFERENCE_KEY = 'references/1/clip.mp4';
/** 5 s: inside Kling's limits as it is. */
const FITTING_KEY = 'references/1/fits.mp4';
const LONG_KEY = 'references/1/long.mp4';
const WEBM_KEY = 'references/1/clip.webm';

let double: FalDouble;
let workDir: string;
let avatarBytes: number;
let fittingBytes: number;
let client: S3Client;
let blobs: S3BlobStore;
const getToFile = (key: string, file: string) => blobs.getToFile(key, file);
const putFile = (key: string, file: string, contentType: string) => blobs.putFile(key, file, contentType);

const avatar: AvatarRef = { id: 1, source: 'prompt', imageKey: AVATAR_KEY, width: 768, height: 1344, prompt: 'a chef' };

function options(overrides: Partial<FalEngineOptions['settings']> = {}): FalEngineOptions {
  const apiKey: SecretProvider = { get: async () => double.key, invalidate: () => undefined };
  return {
    blobs,
    settings: { queueUrl: double.baseUrl, pollIntervalMs: 5, requestTimeoutMs: 5_000, ...overrides },
    apiKey,
    backoff: { sleep: async () => undefined },
  };
}

async function exists(key: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    return true;
  } catch {
    return false;
  }
}

/**
 * A 240x428 MP4 of `seconds` made in this suite's folder, with a tone when `sound`: small, because a
 * reference refitted is encoded at its own size (a 720x1280 one cost a CPU-s each time).
 */
async function smallClip(name: string, seconds: number, { sound = false } = {}): Promise<string> {
  const file = path.join(workDir, name);
  const tone = sound ? ['-f', 'lavfi', '-i', `sine=f=440:d=${seconds}`, '-c:a', 'aac'] : [];
  const picture = ['-f', 'lavfi', '-i', `testsrc2=s=240x428:r=10:d=${seconds}`];
  await runFfmpeg(['-v', 'error', ...picture, ...tone, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mp4', '-y', fileArg(file)]);
  return file;
}

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected an EngineError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'fal-engine-test-'));
  const { s3Endpoint } = sharedEndpoints();
  double = await startFalDouble();
  client = createS3Client({ region: DEFAULT_REGION, s3Endpoint });
  blobs = new S3BlobStore(client, BUCKET);
  await ensureBucket(s3Endpoint, BUCKET);

  const avatarFile = path.join(workDir, 'avatar.png');
  await sharp({ create: { width: 768, height: 1344, channels: 3, background: { r: 200, g: 160, b: 120 } } }).png().toFile(avatarFile);
  avatarBytes = (await fsp.stat(avatarFile)).size;
  await putFile(AVATAR_KEY, avatarFile, 'image/png');
  const [fits, short, long, webm] = await Promise.all([smallClip('fits.mp4', 5), smallClip('short.mp4', 2, { sound: true }), makeFixture('long-mp4'), makeFixture('vertical-webm')]);
  fittingBytes = (await fsp.stat(fits)).size;
  await Promise.all([
    putFile(REFERENCE_KEY, short, 'video/mp4'),
    putFile(FITTING_KEY, fits, 'video/mp4'),
    putFile(LONG_KEY, long, 'video/mp4'),
    putFile(WEBM_KEY, webm, 'video/webm'),
  ]);
});

afterAll(async () => {
  client?.destroy();
  await double?.close();
  await fsp.rm(workDir, { recursive: true, force: true });
});

beforeEach(() => {
  double.reset();
});

describe('avatar from a prompt (FLUX schnell)', () => {
  it('asks for a portrait PNG with the seed and stores the image at the output key', async () => {
    const result = await createFalAvatarEngine(options()).avatarFromPrompt('a cheerful chef with a red bandana', {
      seed: 1234,
      outputKey: 'avatars/2/image.png',
    });
    expect(result).toEqual({
      image: { key: 'avatars/2/image.png', contentType: 'image/png', sizeBytes: expect.any(Number) },
      width: 768,
      height: 1344,
      seed: 1234,
      engine: 'fal',
    });
    const [submit] = double.calls('submit');
    expect(submit!.path).toBe('/fal-ai/flux/schnell');
    expect(submit!.json).toMatchObject({
      prompt: expect.stringContaining('a cheerful chef with a red bandana'),
      image_size: { width: 768, height: 1344 },
      seed: 1234,
      num_images: 1,
      output_format: 'png',
      enable_safety_checker: true,
    });
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'avatars/2/image.png' }));
    expect(head.ContentType).toBe('image/png');
    expect(head.ContentLength).toBe(result.image.sizeBytes);
  });

  it('asks for a UGC-style selfie of the person described, one face looking into the lens', async () => {
    await createFalAvatarEngine(options()).avatarFromPrompt('a woman in her 30s with curly hair', { seed: 5, outputKey: 'avatars/5/image.png' });
    const { prompt } = double.calls('submit')[0]!.json as { prompt: string };
    expect(prompt).toMatch(/^A candid smartphone selfie photo of a woman in her 30s with curly hair\. UGC style/);
    expect(prompt).toMatch(/looking straight into the lens, face fully visible/);
  });

  it.each([
    ['fal-ai/flux/dev', { image_size: { width: 768, height: 1344 }, num_inference_steps: 28, guidance_scale: 3.5 }, ['aspect_ratio']],
    ['fal-ai/flux-pro/v1.1', { image_size: { width: 768, height: 1344 } }, ['num_inference_steps', 'aspect_ratio']],
    ['fal-ai/flux-pro/v1.1-ultra', { aspect_ratio: '9:16', raw: true }, ['image_size', 'num_inference_steps']],
  ])('a better FLUX is a setting (FAL_AVATAR_MODEL=%s), asked in the fields that model takes', async (model, fields, absent) => {
    const settings = falSettingsFromEnv({ FAL_QUEUE_URL: double.baseUrl, FAL_AVATAR_MODEL: model, FAL_POLL_INTERVAL_MS: '5' });
    const result = await createFalAvatarEngine({ ...options(), settings }).avatarFromPrompt('a grandpa', { seed: 8, outputKey: `avatars/${model.length}/image.png` });
    expect(result.engine).toBe('fal');
    const [submit] = double.calls('submit');
    expect(submit!.path).toBe(`/${model}`);
    expect(submit!.json).toMatchObject({ prompt: expect.stringContaining('selfie photo of a grandpa'), seed: 8, num_images: 1, enable_safety_checker: true, output_format: 'png', ...fields });
    for (const field of absent) expect(submit!.json).not.toHaveProperty(field);
  });

  it('FLUX schnell stays the default, at its four steps', async () => {
    expect(falSettingsFromEnv({}).avatarModel).toBe('fal-ai/flux/schnell');
    await createFalAvatarEngine(options()).avatarFromPrompt('a chef', { seed: 2, outputKey: 'avatars/6/image.png' });
    expect(double.calls('submit')[0]!.json).toMatchObject({ num_inference_steps: 4, image_size: { width: 768, height: 1344 } });
  });

  it('an image flagged NSFW is content_rejected and nothing is stored', async () => {
    double.script({ nsfw: true });
    const error = await failure(createFalAvatarEngine(options()).avatarFromPrompt('something', { seed: 1, outputKey: 'avatars/3/image.png' }));
    expect(error.code).toBe('content_rejected');
    expect(await exists('avatars/3/image.png')).toBe(false);
    expect(double.calls('media')).toHaveLength(0);
    // What POST /avatars answers: a 400 naming the prompt, not a server error.
    expect(engineFailureToAppError(error, 'prompt')).toMatchObject({ code: 'bad_request', status: 400, message: expect.stringMatching(/^prompt was refused by the generation provider: flagged/) });
  });

  it('is configured from an environment (FAL_QUEUE_URL, FAL_KEY, FAL_POLL_INTERVAL_MS)', async () => {
    const env = { FAL_QUEUE_URL: double.baseUrl, FAL_KEY: double.key, FAL_POLL_INTERVAL_MS: '5' };
    const engine = falAvatarEngine({ blobs, settings: falSettingsFromEnv(env), apiKey: falKeyProvider({ env }) });
    const result = await engine.avatarFromPrompt('a pirate', { seed: 9, outputKey: 'avatars/4/image.png' });
    expect(result.image.key).toBe('avatars/4/image.png');
  });
});

describe('reaction from a prompt (Kling 2.6 image-to-video)', () => {
  it('animates the avatar from a presigned URL and stores a canonical clip cut to 5 s', async () => {
    double.fetchInputs(true);
    const clip = await createFalReactionEngine(options()).reactionFromPrompt(avatar, 'totally shocked by the price', {
      seed: 77,
      outputKey: 'reactions/1.mp4',
    });
    expect(clip).toEqual({
      video: { key: 'reactions/1.mp4', contentType: 'video/mp4', sizeBytes: expect.any(Number) },
      durationS: 5,
      width: 1080,
      height: 1920,
      fps: 30,
      seed: 77,
      emotion: 'shocked',
      engine: 'fal',
    });

    const [submit] = double.calls('submit');
    expect(submit!.path).toBe('/fal-ai/kling-video/v2.6/pro/image-to-video');
    expect(submit!.json).toMatchObject({
      prompt: expect.stringContaining('totally shocked by the price'),
      start_image_url: expect.stringContaining('X-Amz-Signature='),
      duration: '5',
      generate_audio: false,
    });
    const job = [...double.jobs.values()][0]!;
    expect(job.inputFetches.start_image_url).toEqual({ status: 200, bytes: avatarBytes, contentType: 'image/png' });

    const local = path.join(workDir, 'reaction-1.mp4');
    await getToFile('reactions/1.mp4', local);
    const probed = await probeMedia(local);
    if (!probed.ok) throw new Error(probed.detail);
    expect(canonicalMismatches(probed.media)).toEqual([]);
    expect(probed.media.video!.durationS).toBeCloseTo(5, 1);
  });

  it("with a voice line and a request log, each call's request is kept under its model and the seed: a second generation submits nothing", async () => {
    const slots = new Map<string, ProviderRequest>();
    const requests: ProviderRequestLog = {
      recall: async (slot) => slots.get(slot) ?? null,
      remember: async (slot, request) => void slots.set(slot, request),
      forget: async (slot) => void slots.delete(slot),
    };
    const generation = { seed: 5, outputKey: 'reactions/kept.mp4', voiceLine: 'No way!', requests };
    await createFalReactionEngine(options()).reactionFromPrompt(avatar, 'shocked', generation);
    expect([...slots.keys()].sort()).toEqual(['fal-ai/kling-video/v2.6/pro/image-to-video#5', 'fal-ai/kokoro/american-english#5', 'fal-ai/sync-lipsync#5'].sort());
    expect(double.calls('submit')).toHaveLength(3);
    // The same generation run again (a retried step): it waits for the kept requests and pays for none.
    await createFalReactionEngine(options()).reactionFromPrompt(avatar, 'shocked', generation);
    expect(double.calls('submit')).toHaveLength(3);
    // Another seed is other work.
    await createFalReactionEngine(options()).reactionFromPrompt(avatar, 'shocked', { ...generation, seed: 6, voiceLine: null });
    expect(double.calls('submit')).toHaveLength(4);
  });

  it('the prompt states the reaction beats: a double-take, then the peak, then a reaction to the reaction', async () => {
    double.script({ media: 'video-3s' });
    await createFalReactionEngine(options()).reactionFromPrompt(avatar, 'a woman in her 30s, shocked', { seed: 3, outputKey: 'reactions/beats.mp4' });
    const { prompt } = double.calls('submit')[0]!.json as { prompt: string };
    const beats = ['double-take', 'a big shocked peak', 'a reaction to the reaction'].map((beat) => prompt.indexOf(beat));
    expect(beats.every((at) => at > 0)).toBe(true);
    expect([...beats].sort((a, b) => a - b)).toEqual(beats);
    expect(prompt).toContain('a woman in her 30s, shocked');
  });

  it('a provider clip under 3 s is provider_error and nothing is stored', async () => {
    double.script({ media: 'video-2s' });
    const error = await failure(createFalReactionEngine(options()).reactionFromPrompt(avatar, 'laughing', { seed: 1, outputKey: 'reactions/2.mp4' }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('3-5 s');
    expect(await exists('reactions/2.mp4')).toBe(false);
  });

  it('a result whose video URL is 404 is provider_error and nothing is stored', async () => {
    double.script({ media: 'missing' });
    const error = await failure(createFalReactionEngine(options()).reactionFromPrompt(avatar, 'laughing', { seed: 1, outputKey: 'reactions/3.mp4' }));
    expect(error.code).toBe('provider_error');
    expect(await exists('reactions/3.mp4')).toBe(false);
  });

  it('a result that is not a video is provider_error', async () => {
    double.script({ media: 'not-media' });
    const error = await failure(createFalReactionEngine(options()).reactionFromPrompt(avatar, 'laughing', { seed: 1, outputKey: 'reactions/4.mp4' }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('cannot be read');
  });

  it('a video over the size cap is refused while downloading', async () => {
    const error = await failure(
      createFalReactionEngine(options({ maxVideoBytes: 2_000 })).reactionFromPrompt(avatar, 'laughing', { seed: 1, outputKey: 'reactions/5.mp4' }),
    );
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('larger than');
    expect(await exists('reactions/5.mp4')).toBe(false);
  });
});

describe('reaction from motion (Kling 2.6 motion control)', () => {
  it('sends the avatar and the reference clip as presigned URLs and stores the canonical clip', async () => {
    double.fetchInputs(true);
    double.script({ media: 'video-4s' });
    const clip = await createFalReactionEngine(options()).reactionFromMotion(avatar, FITTING_KEY, { seed: 5, outputKey: 'reactions/6.mp4' });
    expect(clip).toMatchObject({ durationS: 4, width: 1080, height: 1920, fps: 30, seed: 5, emotion: null, engine: 'fal' });

    const [submit] = double.calls('submit');
    expect(submit!.path).toBe('/fal-ai/kling-video/v2.6/standard/motion-control');
    expect(submit!.json).toEqual({
      image_url: expect.stringContaining('X-Amz-Signature='),
      video_url: expect.stringContaining('X-Amz-Signature='),
      character_orientation: 'image',
      keep_original_sound: false,
    });
    const job = [...double.jobs.values()][0]!;
    expect(job.inputFetches.image_url).toMatchObject({ status: 200, bytes: avatarBytes });
    // Inside Kling's limits already: the clip itself, untouched.
    expect(job.inputFetches.video_url).toMatchObject({ status: 200, bytes: fittingBytes });
    expect(await exists('reactions/6.mp4.motion-reference.mp4')).toBe(false);

    const local = path.join(workDir, 'reaction-6.mp4');
    await getToFile('reactions/6.mp4', local);
    const probed = await probeMedia(local);
    if (!probed.ok) throw new Error(probed.detail);
    expect(canonicalMismatches(probed.media)).toEqual([]);
  });

  describe('the reference clip fitted to Kling\'s 3-10 s MP4/MOV (the double refuses anything else with a 422, as fal does)', () => {
    async function sentClip(key: string, outputKey: string) {
      double.fetchInputs(true);
      // What Kling makes of it is not under test here: the shortest clip the engine keeps.
      double.script({ media: 'video-3s' });
      await createFalReactionEngine(options()).reactionFromMotion(avatar, key, { seed: 5, outputKey });
      const local = path.join(workDir, `${path.basename(outputKey)}.sent.mp4`);
      await getToFile(`${outputKey}.motion-reference.mp4`, local);
      const probed = await probeMedia(local);
      if (!probed.ok) throw new Error(probed.detail);
      return { probed: probed.media, fetched: [...double.jobs.values()][0]!.inputFetches.video_url! };
    }

    it('a 2 s clip is looped up to 3 s', async () => {
      const { probed, fetched } = await sentClip(REFERENCE_KEY, 'reactions/8.mp4');
      expect(probed.formatNames).toContain('mp4');
      expect(probed.video!.durationS).toBeCloseTo(3, 0);
      expect(probed.audio).toBeNull();
      expect(fetched.status).toBe(200);
    });

    it('a 3 minute clip is cut to a 10 s window', async () => {
      const { probed } = await sentClip(LONG_KEY, 'reactions/9.mp4');
      // The fixture has one frame a second, so the window may end a frame short of 10 s.
      expect(probed.video!.durationS).toBeGreaterThanOrEqual(9);
      expect(probed.video!.durationS).toBeLessThanOrEqual(10.05);
    });

    it('a WebM clip is re-encoded to MP4', async () => {
      const { probed } = await sentClip(WEBM_KEY, 'reactions/10.mp4');
      expect(probed.video!.codec).toBe('h264');
      expect(probed.video!.durationS).toBeCloseTo(3, 0);
    });

    it('the window kept is the most active one (the most change between frames), the earliest among equals', () => {
      const still = (from: number, to: number) => Array.from({ length: (to - from) * 2 }, (_, i) => [from + i / 2, 1] as [number, number]);
      const burst = Array.from({ length: 10 }, (_, i) => [30 + i / 2, 40] as [number, number]);
      expect(mostActiveStart([...still(0, 30), ...burst, ...still(35, 60)], 60, 10)).toBeGreaterThanOrEqual(25);
      expect(mostActiveStart([...still(0, 30), ...burst, ...still(35, 60)], 60, 10)).toBeLessThanOrEqual(30);
      expect(mostActiveStart(still(0, 60), 60, 10)).toBe(0);
      // A burst at the very end: a full window that holds it.
      const end = mostActiveStart([...still(0, 58), [58, 99], [59, 99]], 60, 10);
      expect(end).toBeGreaterThan(49);
      expect(end).toBeLessThanOrEqual(50);
    });
  });

  it('small avatar images can go inline as data: URIs (FAL_INLINE_IMAGE_MAX_BYTES)', async () => {
    double.script({ result: { status: 422, body: { detail: [{ loc: ['body', 'video_url'], msg: 'too short', type: 'value_error' }] } } });
    const error = await failure(
      createFalReactionEngine(options({ inlineImageMaxBytes: 10 * 1024 * 1024 })).reactionFromMotion(avatar, REFERENCE_KEY, {
        seed: 5,
        outputKey: 'reactions/7.mp4',
      }),
    );
    expect(error.code).toBe('invalid_input');
    const body = double.calls('submit')[0]!.json as Record<string, string>;
    expect(body.image_url).toMatch(/^data:image\/png;base64,/);
    expect(Buffer.from(body.image_url!.split(',')[1]!, 'base64').length).toBe(avatarBytes);
    expect(body.video_url).toContain('X-Amz-Signature=');
  });
});

/**
 * Generation failures as the job records them. fal's status enum ends at COMPLETED whatever came of
 * the run: a failed generation is a COMPLETED request whose result is an error answer.
 */
describe('failed generations: the job outcome', () => {
  /** The reaction's failure as the state machine's Catch hands it to MarkFailed, and the job error it becomes. */
  async function jobOutcome(): Promise<{ retried: boolean; error: ReturnType<typeof jobErrorOf> }> {
    const failed = toPipelineError(await failure(createFalReactionEngine(options()).reactionFromPrompt(avatar, 'shocked', { seed: 3, outputKey: 'reactions/failed.mp4' })), 'generation_failed');
    return { retried: failed.name === RETRYABLE_ERROR, error: jobErrorOf({ Error: failed.name, Cause: failed.message }) };
  }

  it('a content-policy refusal fails the job as content_rejected, without retries', async () => {
    double.script({
      statuses: ['IN_QUEUE', 'COMPLETED'],
      result: { status: 422, body: { detail: [{ loc: ['body', 'prompt'], msg: 'The prompt was flagged by the content checker', type: 'content_policy_violation' }] } },
    });
    const outcome = await jobOutcome();
    expect(outcome).toEqual({ retried: false, error: { code: 'content_rejected', message: expect.stringContaining("flagged by the provider's safety filter (the prompt:") } });
    expect(await exists('reactions/failed.mp4')).toBe(false);
  });

  it('an input the model cannot use fails the job as invalid_input, naming the field', async () => {
    double.script({ statuses: ['COMPLETED'], result: { status: 422, body: { detail: [{ loc: ['body', 'start_image_url'], msg: 'No face detected in the image', type: 'value_error' }] } } });
    const outcome = await jobOutcome();
    expect(outcome).toEqual({ retried: false, error: { code: 'invalid_input', message: expect.stringContaining('No face detected') } });
  });

  it('a crash of the model (a 500 result) is retried by the state machine, then reads generation_failed', async () => {
    double.script({ statuses: ['COMPLETED'], result: { status: 500, body: { detail: 'Internal server error' } } });
    const outcome = await jobOutcome();
    expect(outcome).toEqual({ retried: true, error: { code: 'generation_failed', message: expect.stringContaining('busy or down') } });
  });
});
