/**
 * The hosted fal.ai adapters behind the engine port (docs/engines.md):
 *
 * - avatar from a prompt: a UGC-style selfie from FLUX.1 schnell (`fal-ai/flux/schnell`; FAL_AVATAR_MODEL
 *   picks a better FLUX, e.g. `fal-ai/flux-pro/v1.1-ultra`), 768x1344 (9:16) portrait PNG, seed passed
 *   through, safety checker on (a flagged image is `content_rejected`);
 * - reaction from a prompt: Kling 2.6 pro image-to-video, the avatar as the start image, 5 s, no
 *   generated audio;
 * - reaction from motion: Kling 2.6 standard motion control, the avatar animated by the reference
 *   clip (first fitted to Kling's 3-10 s MP4/MOV, motion-reference.ts), framing kept from the image,
 *   the clip's sound dropped;
 * - a voice line (either reaction): Kokoro text-to-speech, then sync.so lip-sync over the generated
 *   reaction (./voice.ts); the clip's sound is then the speech.
 *
 * Results are downloaded from fal's CDN and stored at the caller's key: images as they are, videos
 * in the canonical encoding, cut to 5 s (shorter than 3 s is refused as a provider error).
 */
import * as path from 'node:path';
import * as z from 'zod/mini';
import {
  EngineError,
  type AvatarEngine,
  type AvatarRef,
  type GeneratedAvatar,
  type GenerationOptions,
  type ReactionClip,
  type ReactionEngine,
} from '#ports/engine';
import type { Emotion } from '#render';
import { falKeyProvider, type SecretProvider } from '#adapters/engines/credentials';
import type { BackoffPolicy } from '#adapters/engines/http-retry';
import { falSettingsFromEnv, type FalSettings } from './config';
import { FalQueueClient } from './queue-client';
import { imageInputUrl, objectInputUrl, storeImage, storeReactionClip, withTempDir, type FalBlobs } from './media';
import { fitMotionReference } from './motion-reference';
import { lipSyncedUrl, speechUrl } from './voice';
import { allOrPending, keptAs } from './kept-requests';

export const FAL_ENGINE_NAME = 'fal';

/** Portrait, close to 9:16, a size FLUX handles natively (multiples of 64). */
export const AVATAR_IMAGE_SIZE = { width: 768, height: 1344 } as const;

const FalFile = z.looseObject({ url: z.string().check(z.minLength(1)), content_type: z.nullish(z.string()) });

export const FluxOutput = z.looseObject({
  images: z
    .array(z.extend(FalFile, { width: z.nullish(z.number()), height: z.nullish(z.number()) }))
    .check(z.minLength(1, 'no image in the answer')),
  seed: z.nullish(z.number()),
  has_nsfw_concepts: z.nullish(z.array(z.boolean())),
});

export const KlingOutput = z.looseObject({
  video: z.extend(FalFile, { file_name: z.nullish(z.string()), file_size: z.nullish(z.number()) }),
});

export interface FalEngineOptions {
  /** The wiring's blob store: where inputs are read from and results stored. */
  blobs: FalBlobs;
  settings?: Partial<FalSettings>;
  apiKey?: SecretProvider;
  backoff?: Partial<BackoffPolicy>;
  /** Reuse a client (tests); otherwise one is made from the settings. */
  client?: FalQueueClient;
}

function resolve(options: FalEngineOptions): { settings: FalSettings; client: FalQueueClient; blobs: FalBlobs } {
  const settings = { ...falSettingsFromEnv(), ...options.settings };
  const client =
    options.client ??
    new FalQueueClient({
      queueUrl: settings.queueUrl,
      apiKey: options.apiKey ?? falKeyProvider(),
      requestTimeoutMs: settings.requestTimeoutMs,
      pollIntervalMs: settings.pollIntervalMs,
      webhookUrl: settings.webhookUrl,
      backoff: { maxAttempts: settings.maxAttempts, ...options.backoff },
    });
  return { settings, client, blobs: options.blobs };
}

/** fal seeds are unsigned 32-bit integers; ours pass through unchanged when they already are. */
export function falSeed(seed: number): number {
  const whole = Math.trunc(Number.isFinite(seed) ? seed : 0);
  return ((whole % 2 ** 32) + 2 ** 32) % 2 ** 32;
}

function clean(text: string, max: number): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, max);
}

/**
 * The FLUX prompt: the user's words as a UGC selfie, the picture short-video viewers trust (a person
 * filming themselves, not a studio portrait), framed for a video model to animate: one face, fully
 * visible, looking into the lens.
 */
export function avatarPrompt(prompt: string): string {
  return `A candid smartphone selfie photo of ${clean(prompt, 800)}. UGC style: front camera held at arm's length, vertical 9:16, head and shoulders, looking straight into the lens, face fully visible, natural window light, real skin texture, casual everyday setting softly out of focus behind, natural expression, no filter, no text.`;
}

/** The peak each reaction builds to, in words a video model acts on. */
const PEAKS: Record<Emotion, string> = {
  shocked: 'a big shocked peak, jaw dropped, eyes wide',
  laughing: 'a big burst of laughter',
  excited: 'a big excited peak, eyes lit up',
  crying: 'an emotional, teary peak',
  disgusted: 'a big disgusted grimace',
  mind_blown: 'a big mind-blown peak, hands to the head',
  skeptical: 'a long skeptical side-eye, one brow raised',
  in_love: 'a big heart-eyes, in-love peak',
  angry: 'a big outraged peak',
  happy: 'a big delighted smile',
};

/**
 * The Kling image-to-video prompt built from the user's reaction prompt, told as the beats of a
 * reaction video (a double-take, the peak, then a reaction to the reaction): a model asked for an
 * expression alone holds one face for the whole clip. A reaction that will speak asks for natural
 * mouth motion: lip-sync models keep a speaker's style and work best from it.
 */
export function reactionPrompt(prompt: string, options: { speaking?: boolean } = {}): string {
  const speaking = options.speaking ? ' The person speaks a short line to the camera, mouth moving naturally.' : '';
  const emotion = emotionOf(prompt);
  const peak = emotion ? PEAKS[emotion] : 'a big peak of the reaction';
  return (
    `The person in the image reacts: ${clean(prompt, 1200)}. ` +
    `Beats: a quick double-take at the phone, then ${peak}, then a reaction to the reaction (a disbelieving laugh, a head shake, a look back into the lens), held to the end. ` +
    'Expressive eyes, brows and mouth; handheld front-camera selfie video, UGC style; head and shoulders stay in frame; same person, clothes and background as the image; vertical framing.' +
    speaking
  );
}

/**
 * The FLUX request beyond prompt and seed, per endpoint (fal's model pages): schnell is distilled to
 * a few steps; dev wants its usual 28 and a guidance scale; pro takes no step count; ultra frames by
 * aspect ratio, and its `raw` mode is the less polished, more photographic look a selfie wants.
 * Another model gets the fields every FLUX endpoint shares.
 */
export function fluxInput(model: string, prompt: string, seed: number): Record<string, unknown> {
  const common = { prompt: avatarPrompt(prompt), seed, num_images: 1, enable_safety_checker: true, output_format: 'png' };
  if (model === 'fal-ai/flux/schnell') return { ...common, image_size: AVATAR_IMAGE_SIZE, num_inference_steps: 4 };
  if (model === 'fal-ai/flux/dev') return { ...common, image_size: AVATAR_IMAGE_SIZE, num_inference_steps: 28, guidance_scale: 3.5 };
  if (model.startsWith('fal-ai/flux-pro/') && model.endsWith('-ultra')) return { ...common, aspect_ratio: '9:16', raw: true };
  return { ...common, image_size: AVATAR_IMAGE_SIZE };
}

export const REACTION_NEGATIVE_PROMPT = 'blur, distort, and low quality, text, watermark, extra people, face deformation';

const EMOTION_WORDS: ReadonlyArray<[Emotion, RegExp]> = [
  ['mind_blown', /mind[\s-]?blow|🤯|explod/i],
  ['shocked', /shock|surpris|astonish|stunned|gasp|\bomg\b|\bwow\b|😱|😮/i],
  ['laughing', /laugh|\blol\b|hilarious|funny|giggl|😂|🤣/i],
  ['crying', /\bcr(y|ies|ying)\b|tears|\bsob|weep|😭|😢/i],
  ['disgusted', /disgust|gross|\bew+\b|yuck|revolt|🤢/i],
  ['skeptical', /skeptic|sceptic|doubt|suspicious|unconvinced|side[\s-]?eye|🤨/i],
  ['in_love', /\blove|heart|adore|crush|😍|🥰/i],
  ['angry', /angry|\bmad\b|furious|rage|annoyed|😡|😠/i],
  ['excited', /excit|hype|thrill|\byay\b|ecstatic|pumped|🤩/i],
  ['happy', /happy|smil|joy|glad|delight|pleased|😊|🙂/i],
];

/** What the reaction prompt asks for, in the local engine's vocabulary (for display); null if unclear. */
export function emotionOf(prompt: string): Emotion | null {
  for (const [emotion, pattern] of EMOTION_WORDS) if (pattern.test(prompt)) return emotion;
  return null;
}

export function createFalAvatarEngine(options: FalEngineOptions): AvatarEngine {
  const { settings, client, blobs } = resolve(options);
  return {
    name: FAL_ENGINE_NAME,
    async avatarFromPrompt(prompt: string, generation: GenerationOptions): Promise<GeneratedAvatar> {
      const seed = falSeed(generation.seed);
      const { output } = await client.run(settings.avatarModel, {
        input: fluxInput(settings.avatarModel, prompt, seed),
        output: FluxOutput,
        timeoutMs: settings.imageTimeoutMs,
        signal: generation.signal,
        ...keptAs(settings.avatarModel, generation),
      });
      if (output.has_nsfw_concepts?.some(Boolean)) {
        throw new EngineError('content_rejected', "flagged by the provider's safety filter (the generated image was marked unsafe); try a different prompt");
      }
      const first = output.images[0]!;
      return withTempDir('fal-avatar-', async (dir) => {
        const file = path.join(dir, 'avatar');
        await client.download(first.url, file, {
          maxBytes: settings.maxImageBytes,
          timeoutMs: settings.downloadTimeoutMs,
          signal: generation.signal,
          describe: 'result image',
        });
        const stored = await storeImage(blobs, file, generation.outputKey);
        return {
          image: stored.image,
          width: stored.width,
          height: stored.height,
          seed: typeof output.seed === 'number' ? output.seed : seed,
          engine: FAL_ENGINE_NAME,
        };
      });
    },
  };
}

export function createFalReactionEngine(options: FalEngineOptions): ReactionEngine {
  const { settings, client, blobs } = resolve(options);

  async function generate(
    model: string,
    input: Record<string, unknown>,
    generation: GenerationOptions,
    emotion: string | null,
  ): Promise<ReactionClip> {
    const line = generation.voiceLine?.trim() || null;
    // The speech is made while the reaction renders; the lip-sync needs both.
    const [{ output }, speech] = await allOrPending([
      client.run(model, { input, output: KlingOutput, timeoutMs: settings.timeoutMs, signal: generation.signal, ...keptAs(model, generation) }),
      line ? speechUrl(client, settings, line, generation) : Promise.resolve(null),
    ] as const);
    const videoUrl = speech ? await lipSyncedUrl(client, settings, output.video.url, speech, generation) : output.video.url;
    return withTempDir('fal-reaction-', async (dir) => {
      const source = path.join(dir, 'provider-video');
      await client.download(videoUrl, source, {
        maxBytes: settings.maxVideoBytes,
        timeoutMs: settings.downloadTimeoutMs,
        signal: generation.signal,
        describe: 'result video',
      });
      const clip = await storeReactionClip(blobs, source, dir, generation.outputKey, generation.signal);
      return { ...clip, seed: generation.seed, emotion, engine: FAL_ENGINE_NAME, ...(speech ? { voice: true } : {}) };
    });
  }

  return {
    name: FAL_ENGINE_NAME,
    callsBack: true,
    async reactionFromPrompt(avatar: AvatarRef, prompt: string, generation: GenerationOptions): Promise<ReactionClip> {
      const input = {
        prompt: reactionPrompt(prompt, { speaking: !!generation.voiceLine?.trim() }),
        start_image_url: await imageInputUrl(blobs, avatar.imageKey, settings.inlineImageMaxBytes),
        duration: '5',
        negative_prompt: REACTION_NEGATIVE_PROMPT,
        generate_audio: false,
      };
      return generate(settings.imageToVideoModel, input, generation, emotionOf(prompt));
    },
    async reactionFromMotion(avatar: AvatarRef, referenceKey: string, generation: GenerationOptions): Promise<ReactionClip> {
      // Fitted to Kling's limits first: it would refuse the clip only after the user waited.
      const reference = await withTempDir('fal-motion-reference-', (dir) => fitMotionReference(blobs, referenceKey, dir, `${generation.outputKey}.motion-reference.mp4`));
      const input = {
        image_url: await imageInputUrl(blobs, avatar.imageKey, settings.inlineImageMaxBytes),
        video_url: await objectInputUrl(blobs, reference.key),
        character_orientation: 'image',
        keep_original_sound: false,
      };
      return generate(settings.motionModel, input, generation, null);
    },
  };
}

/** The avatar engine configured from the environment (see ./config.ts). */
export function falAvatarEngine(options: FalEngineOptions): AvatarEngine {
  return createFalAvatarEngine(options);
}

/** The reaction engine configured from the environment (see ./config.ts). */
export function falReactionEngine(options: FalEngineOptions): ReactionEngine {
  return createFalReactionEngine(options);
}
