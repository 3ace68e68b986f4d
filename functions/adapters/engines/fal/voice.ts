/**
 * A voice line on the hosted engine (GenerationOptions.voiceLine): text-to-speech (Kokoro by default,
 * `FAL_TTS_MODEL`, voice `FAL_TTS_VOICE`), then a lip-sync model (sync.so lipsync, `FAL_LIPSYNC_MODEL`)
 * that re-animates the generated reaction's mouth to the speech and returns the video with the speech
 * as its sound. Both run through fal's queue like the video models; files pass between them as fal's
 * own result URLs, so nothing is uploaded.
 *
 * The speech starts with the clip (the models place it there). `sync_mode: silence` keeps the whole
 * reaction when the line is shorter than it, padding the sound with silence; a longer line is cut
 * with the clip at REACTION_CLIP.maxS when the result is stored.
 */
import * as z from 'zod/mini';
import type { GenerationOptions } from '#ports/engine';
import type { FalSettings } from './config';
import { keptAs } from './kept-requests';
import type { FalQueueClient } from './queue-client';

const FalFile = z.looseObject({ url: z.string().check(z.minLength(1)), content_type: z.nullish(z.string()) });

/** Kokoro's answer (PlayAI's and most fal TTS models' too): the speech as a file. */
const SpeechOutput = z.looseObject({ audio: FalFile });
/** A lip-sync model's answer: the video with the speech. */
const LipSyncOutput = z.looseObject({ video: FalFile });

/** The generation a voice call belongs to: its abort signal, and where its requests are kept. */
type VoiceGeneration = Pick<GenerationOptions, 'signal' | 'requests' | 'seed' | 'callback'>;

type VoiceSettings = Pick<FalSettings, 'ttsModel' | 'ttsVoice' | 'lipSyncModel' | 'imageTimeoutMs' | 'timeoutMs'>;

/** The line spoken: a URL of the speech on fal's CDN. */
export async function speechUrl(client: FalQueueClient, settings: VoiceSettings, line: string, generation: VoiceGeneration): Promise<string> {
  const { output } = await client.run(settings.ttsModel, {
    input: { prompt: line.replace(/\s+/g, ' ').trim(), voice: settings.ttsVoice },
    output: SpeechOutput,
    // Speech for a hundred characters is quick: the image models' limit fits it.
    timeoutMs: settings.imageTimeoutMs,
    signal: generation.signal,
    ...keptAs(settings.ttsModel, generation),
  });
  return output.audio.url;
}

/** The reaction at `videoUrl` re-animated to speak the speech at `audioUrl`: the result video's URL. */
export async function lipSyncedUrl(client: FalQueueClient, settings: VoiceSettings, videoUrl: string, audioUrl: string, generation: VoiceGeneration): Promise<string> {
  const { output } = await client.run(settings.lipSyncModel, {
    input: { video_url: videoUrl, audio_url: audioUrl, sync_mode: 'silence' },
    output: LipSyncOutput,
    timeoutMs: settings.timeoutMs,
    signal: generation.signal,
    ...keptAs(settings.lipSyncModel, generation),
  });
  return output.video.url;
}
