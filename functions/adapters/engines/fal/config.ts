/**
 * fal.ai settings from the environment. Every value has a default that works against the real
 * service; tests and the local twin point FAL_QUEUE_URL at a loopback double.
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | FAL_QUEUE_URL | https://queue.fal.run | queue host (submit goes to `{url}/{model_id}`) |
 * | FAL_KEY / FAL_KEY_SECRET_ARN / FAL_KEY_PARAMETER | - | the API key (see ../credentials.ts) |
 * | FAL_TIMEOUT_S | 600 | overall limit of one video generation (queue wait + run + result) |
 * | FAL_IMAGE_TIMEOUT_S | 120 | overall limit of one image generation |
 * | FAL_REQUEST_TIMEOUT_S | 30 | limit of one HTTP request to the queue |
 * | FAL_DOWNLOAD_TIMEOUT_S | 120 | limit of one result download |
 * | FAL_POLL_INTERVAL_MS | 2000 | first status poll delay; grows 1.5x up to 5x this |
 * | FAL_MAX_ATTEMPTS | 4 | attempts per HTTP request on 429/5xx/network errors |
 * | FAL_WEBHOOK_URL | - | when set, submitted as `?fal_webhook=`; see webhook.ts |
 * | FAL_MAX_VIDEO_BYTES | 209715200 | cap on a downloaded result video |
 * | FAL_MAX_IMAGE_BYTES | 26214400 | cap on a downloaded result image |
 * | FAL_INLINE_IMAGE_MAX_BYTES | 0 | avatar images up to this size go to fal as data: URIs (0: always presigned URLs) |
 * | FAL_AVATAR_MODEL | fal-ai/flux/schnell | text-to-image endpoint: a FLUX model (`fal-ai/flux/dev`, `fal-ai/flux-pro/v1.1`, `fal-ai/flux-pro/v1.1-ultra` for more photographic selfies; engine.ts fits the request to each) |
 * | FAL_I2V_MODEL | fal-ai/kling-video/v2.6/pro/image-to-video | reaction from a prompt |
 * | FAL_MOTION_MODEL | fal-ai/kling-video/v2.6/standard/motion-control | reaction from a reference clip |
 * | FAL_TTS_MODEL | fal-ai/kokoro/american-english | a job's voice line to speech (input `prompt`, `voice`; answers `audio`) |
 * | FAL_TTS_VOICE | af_heart | the TTS model's voice id |
 * | FAL_LIPSYNC_MODEL | fal-ai/sync-lipsync | the reaction re-animated to the speech (input `video_url`, `audio_url`; answers `video`) |
 */
import { environment, type Environment } from '#functions/config';

const FAL_DEFAULTS = {
  queueUrl: 'https://queue.fal.run',
  timeoutMs: 600_000,
  imageTimeoutMs: 120_000,
  requestTimeoutMs: 30_000,
  downloadTimeoutMs: 120_000,
  pollIntervalMs: 2_000,
  maxAttempts: 4,
  maxVideoBytes: 200 * 1024 * 1024,
  maxImageBytes: 25 * 1024 * 1024,
  inlineImageMaxBytes: 0,
  avatarModel: 'fal-ai/flux/schnell',
  imageToVideoModel: 'fal-ai/kling-video/v2.6/pro/image-to-video',
  motionModel: 'fal-ai/kling-video/v2.6/standard/motion-control',
  ttsModel: 'fal-ai/kokoro/american-english',
  ttsVoice: 'af_heart',
  lipSyncModel: 'fal-ai/sync-lipsync',
} as const;

export interface FalSettings {
  queueUrl: string;
  timeoutMs: number;
  imageTimeoutMs: number;
  requestTimeoutMs: number;
  downloadTimeoutMs: number;
  pollIntervalMs: number;
  maxAttempts: number;
  webhookUrl: string | undefined;
  maxVideoBytes: number;
  maxImageBytes: number;
  inlineImageMaxBytes: number;
  avatarModel: string;
  imageToVideoModel: string;
  motionModel: string;
  ttsModel: string;
  ttsVoice: string;
  lipSyncModel: string;
}

function positive(env: Environment, name: string, fallback: number, scale = 1): number {
  const raw = env[name] || undefined;
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}=${raw} is not a non-negative number`);
  return value * scale;
}

/** Read once from the given environment (the process's by default); unset or empty is the default. */
export function falSettingsFromEnv(env: Environment = environment()): FalSettings {
  const optional = (name: string) => env[name] || undefined;
  return {
    queueUrl: (optional('FAL_QUEUE_URL') ?? FAL_DEFAULTS.queueUrl).replace(/\/+$/, ''),
    timeoutMs: positive(env, 'FAL_TIMEOUT_S', FAL_DEFAULTS.timeoutMs, 1000),
    imageTimeoutMs: positive(env, 'FAL_IMAGE_TIMEOUT_S', FAL_DEFAULTS.imageTimeoutMs, 1000),
    requestTimeoutMs: positive(env, 'FAL_REQUEST_TIMEOUT_S', FAL_DEFAULTS.requestTimeoutMs, 1000),
    downloadTimeoutMs: positive(env, 'FAL_DOWNLOAD_TIMEOUT_S', FAL_DEFAULTS.downloadTimeoutMs, 1000),
    pollIntervalMs: positive(env, 'FAL_POLL_INTERVAL_MS', FAL_DEFAULTS.pollIntervalMs),
    maxAttempts: Math.max(1, Math.trunc(positive(env, 'FAL_MAX_ATTEMPTS', FAL_DEFAULTS.maxAttempts))),
    webhookUrl: optional('FAL_WEBHOOK_URL'),
    maxVideoBytes: positive(env, 'FAL_MAX_VIDEO_BYTES', FAL_DEFAULTS.maxVideoBytes),
    maxImageBytes: positive(env, 'FAL_MAX_IMAGE_BYTES', FAL_DEFAULTS.maxImageBytes),
    inlineImageMaxBytes: positive(env, 'FAL_INLINE_IMAGE_MAX_BYTES', FAL_DEFAULTS.inlineImageMaxBytes),
    avatarModel: optional('FAL_AVATAR_MODEL') ?? FAL_DEFAULTS.avatarModel,
    imageToVideoModel: optional('FAL_I2V_MODEL') ?? FAL_DEFAULTS.imageToVideoModel,
    motionModel: optional('FAL_MOTION_MODEL') ?? FAL_DEFAULTS.motionModel,
    ttsModel: optional('FAL_TTS_MODEL') ?? FAL_DEFAULTS.ttsModel,
    ttsVoice: optional('FAL_TTS_VOICE') ?? FAL_DEFAULTS.ttsVoice,
    lipSyncModel: optional('FAL_LIPSYNC_MODEL') ?? FAL_DEFAULTS.lipSyncModel,
  };
}
