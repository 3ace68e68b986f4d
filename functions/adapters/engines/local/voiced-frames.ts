/**
 * The local engine's voice line (GenerationOptions.voiceLine): espeak-ng speaks it, the clip's sound
 * is that speech from SPEECH_START_S, and the mouth follows its phonemes. The reaction lasts at
 * least until the line ends plus SPEECH_TAIL_S, within REACTION_CLIP.maxS (spoken-line.ts says how
 * a longer line is made to fit). Same line, same reaction frames → the same frames and sound.
 */
import { REACTION_CLIP } from '#ports/engine';
import { framesToLength, mouthFrames, prepareSpokenLine, speakingFrames, SPEECH_START_S, SPEECH_TAIL_S, type ReactionFrame } from '#render';
import { guard } from './engine-files';

export interface VoicedFrames {
  frames: ReactionFrame[];
  /** The clip's sound track (a WAV placed from 0). */
  audioPath: string;
}

/**
 * `planned` is the reaction as it would play without a voice; `longer` re-plans it at a frame count
 * (else its last pose is held). Null when the line holds nothing espeak-ng can say aloud.
 */
export async function voicedFrames(
  line: string,
  planned: ReactionFrame[],
  dir: string,
  options: { signal?: AbortSignal; longer?: (frameCount: number) => ReactionFrame[] },
): Promise<VoicedFrames | null> {
  const { fps, maxS } = REACTION_CLIP;
  const spoken = await guard(
    () => prepareSpokenLine(line, dir, { maxSpeechS: maxS - SPEECH_START_S - SPEECH_TAIL_S, signal: options.signal }),
    'speaking the voice line failed',
  );
  if (!spoken) return null;
  const needed = Math.min(maxS * fps, Math.ceil(spoken.clipS * fps));
  const frames = framesToLength(planned, needed, options.longer);
  return { frames: speakingFrames(frames, mouthFrames(spoken, fps, frames.length)), audioPath: spoken.audioPath };
}
