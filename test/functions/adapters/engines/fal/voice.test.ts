/**
 * A voice line on the hosted engine, through the fal queue double: the speech (Kokoro) is made
 * while the reaction renders (Kling), then the lip-sync model (sync.so) gets both by fal's own
 * result URLs, and the clip stored is its answer, with the speech as its sound.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import type { SecretProvider } from '#adapters/engines/credentials';
import { falSettingsFromEnv, type FalSettings } from '#adapters/engines/fal/config';
import { createFalReactionEngine } from '#adapters/engines/fal/engine';
import { audioLevels } from '#test-support/audio-levels';
import { EngineError, type AvatarRef } from '#ports/engine';
import { startFalDouble, type FalDouble } from '#test-doubles/fal-queue';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';

const AVATAR_KEY = 'avatars/1/image.png';
const avatar: AvatarRef = { id: 1, source: 'prompt', imageKey: AVATAR_KEY, width: 768, height: 1344, prompt: 'a chef' };
const LINE = "You won't believe what this does!";

let double: FalDouble;
let blobs: MemoryBlobStore;
let workDir: string;

beforeAll(async () => {
  workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'fal-voice-test-'));
  double = await startFalDouble();
  blobs = new MemoryBlobStore();
  const png = await sharp({ create: { width: 768, height: 1344, channels: 3, background: { r: 200, g: 160, b: 120 } } }).png().toBuffer();
  await blobs.putBuffer(AVATAR_KEY, png, 'image/png');
});

afterAll(async () => {
  await double?.close();
  await fsp.rm(workDir, { recursive: true, force: true });
});

beforeEach(() => double.reset());

function engine(settings: Partial<FalSettings> = {}) {
  const apiKey: SecretProvider = { get: async () => double.key, invalidate: () => undefined };
  // The avatar goes inline (a data: URI): the memory store's links are not fetchable.
  return createFalReactionEngine({
    blobs,
    settings: { queueUrl: double.baseUrl, pollIntervalMs: 5, requestTimeoutMs: 5_000, inlineImageMaxBytes: 10_000_000, ...settings },
    apiKey,
    backoff: { sleep: async () => undefined },
  });
}

const submitted = (model: string) => double.calls('submit').filter((r) => r.path === `/${model}`);

describe('a voice line on the hosted engine', () => {
  test('speech, then lip-sync over the reaction: the clip is the lip-synced video, its sound the speech, voice: true', async () => {
    double.fetchInputs(true);
    const clip = await engine().reactionFromPrompt(avatar, 'totally shocked by the price', { seed: 3, outputKey: 'reactions/v.mp4', voiceLine: `  ${LINE} ` });
    expect(clip).toMatchObject({ voice: true, engine: 'fal', emotion: 'shocked', durationS: 5, width: 1080, height: 1920 });

    const [kling] = submitted('fal-ai/kling-video/v2.6/pro/image-to-video');
    expect(kling!.json).toMatchObject({ prompt: expect.stringContaining('speaks a short line'), generate_audio: false });
    const [tts] = submitted('fal-ai/kokoro/american-english');
    expect(tts!.json).toEqual({ prompt: LINE, voice: 'af_heart' });
    const [lipSync] = submitted('fal-ai/sync-lipsync');
    const jobOf = (endpoint: string) => [...double.jobs.values()].find((j) => j.endpoint === endpoint)!;
    const klingJob = jobOf('fal-ai/kling-video/v2.6/pro/image-to-video');
    const ttsJob = jobOf('fal-ai/kokoro/american-english');
    expect(lipSync!.json).toEqual({
      video_url: `${double.baseUrl}/media/${klingJob.id}.mp4`,
      audio_url: `${double.baseUrl}/media/${ttsJob.id}.wav`,
      sync_mode: 'silence',
    });
    // The lip-sync model could fetch both, as fal would.
    const fetched = jobOf('fal-ai/sync-lipsync').inputFetches;
    expect(fetched.video_url).toMatchObject({ status: 200, contentType: 'video/mp4' });
    expect(fetched.audio_url).toMatchObject({ status: 200, contentType: 'audio/wav' });

    // The stored clip is the lip-synced video (the reaction alone has no sound at all).
    const file = path.join(workDir, 'v.mp4');
    await fsp.writeFile(file, blobs.objects.get('reactions/v.mp4')!.data);
    expect((await audioLevels(file)).mean).toBeGreaterThan(-30);
  });

  test('no voice line: one model, no speech, no voice flag', async () => {
    // The shortest clip the engine keeps: its picture is not under test.
    double.script({ media: 'video-3s' });
    const clip = await engine().reactionFromPrompt(avatar, 'laughing', { seed: 1, outputKey: 'reactions/q.mp4', voiceLine: '   ' });
    expect(clip.voice).toBeUndefined();
    expect(double.calls('submit').map((r) => r.path)).toEqual(['/fal-ai/kling-video/v2.6/pro/image-to-video']);
    expect((double.calls('submit')[0]!.json as { prompt: string }).prompt).not.toContain('speaks');
  });

  test('the models and the voice are settings: FAL_TTS_MODEL, FAL_TTS_VOICE, FAL_LIPSYNC_MODEL', async () => {
    expect(falSettingsFromEnv({})).toMatchObject({ ttsModel: 'fal-ai/kokoro/american-english', ttsVoice: 'af_heart', lipSyncModel: 'fal-ai/sync-lipsync' });
    expect(falSettingsFromEnv({ FAL_TTS_MODEL: 'fal-ai/kokoro/british-english', FAL_TTS_VOICE: 'am_adam', FAL_LIPSYNC_MODEL: 'fal-ai/latentsync' })).toMatchObject({
      ttsModel: 'fal-ai/kokoro/british-english',
      ttsVoice: 'am_adam',
      lipSyncModel: 'fal-ai/latentsync',
    });
    await engine({ ttsVoice: 'am_adam' }).reactionFromPrompt(avatar, 'happy', { seed: 1, outputKey: 'reactions/m.mp4', voiceLine: LINE });
    expect(submitted('fal-ai/kokoro/american-english')[0]!.json).toMatchObject({ voice: 'am_adam' });
  });

  test('a lip-sync model fal does not know fails the generation, and nothing is stored', async () => {
    const error = await engine({ lipSyncModel: 'fal-ai/no-such-lipsync' })
      .reactionFromPrompt(avatar, 'happy', { seed: 1, outputKey: 'reactions/x.mp4', voiceLine: LINE })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(blobs.objects.has('reactions/x.mp4')).toBe(false);
  });
});
