/**
 * A voice line made ready for a reaction clip: spoken by espeak-ng, placed so the speech starts
 * SPEECH_START_S into the clip (a beat of reaction first), with the mouth shapes timed on the clip's
 * own clock and the clip length it needs (the speech plus a beat after it).
 *
 * The clip may not run past `maxSpeechS` of speech. A longer line is first spoken faster (up to
 * MAX_RATE_WPM, still clear), and only if that is not enough cut: at the end of the last phrase that
 * fits when there is one late enough, else faded out over a quarter second, never stopped dead.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_RATE_WPM, speak } from './espeak';
import { alignPhonemes, mouthTrack, parsePhonemes, speechSpans, type MouthFrame, type Span, type TimedPhoneme } from './visemes';
const { ceil, floor, max, min, round } = Math;

/** Where the speech starts in the clip, and the beat left after it. */
export const SPEECH_START_S = 0.3;
export const SPEECH_TAIL_S = 0.3;
/** The fastest a line is spoken to fit (espeak-ng stays intelligible well past this). */
const MAX_RATE_WPM = 280;

export interface SpokenLine {
  /** Mono 16-bit WAV, silent until the speech starts at ~SPEECH_START_S. */
  audioPath: string;
  /** When the speech ends on the clip's clock, seconds. */
  endS: number;
  /** The shortest clip that holds the line and the beat after it, seconds. */
  clipS: number;
  /** Phonemes and stretches of speech, on the clip's clock. */
  phonemes: TimedPhoneme[];
  spans: Span[];
  rateWpm: number;
  /** The line did not fit even spoken fast, and was cut (see the module comment). */
  truncated: boolean;
}

export interface PcmAudio {
  samples: Float32Array;
  sampleRate: number;
}

/** Reads a PCM WAV (espeak-ng's: 16-bit mono) as mono floats. */
export function readWav(bytes: Buffer): PcmAudio {
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file');
  let offset = 12;
  let sampleRate = 0;
  let channels = 0;
  let bits = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      channels = bytes.readUInt16LE(body + 2);
      sampleRate = bytes.readUInt32LE(body + 4);
      bits = bytes.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (bits !== 16 || channels < 1) throw new Error(`unsupported WAV: ${bits}-bit, ${channels} channels`);
      // A writer that could not seek back leaves the size unset: the data runs to the end.
      const end = min(bytes.length, size > 0 && size < 0xffffffff ? body + size : bytes.length);
      const frames = floor((end - body) / (2 * channels));
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) samples[i] = bytes.readInt16LE(body + i * 2 * channels) / 32768;
      return { samples, sampleRate };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file has no data');
}

export function wavBytes(audio: PcmAudio): Buffer {
  const { samples, sampleRate } = audio;
  const out = Buffer.alloc(44 + samples.length * 2);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + samples.length * 2, 4);
  out.write('WAVEfmt ', 8, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(max(-32768, min(32767, round(samples[i]! * 32768))), 44 + i * 2);
  return out;
}

interface Take {
  audio: PcmAudio;
  phonemes: string;
  spans: Span[];
  /** Where the heard speech starts and how long it lasts, seconds. */
  startS: number;
  lengthS: number;
}

async function take(line: string, dir: string, rateWpm: number, signal?: AbortSignal): Promise<Take> {
  const spoken = await speak(line, dir, { rateWpm, name: `voice-${rateWpm}`, signal });
  const audio = readWav(await fsp.readFile(spoken.wavPath));
  const spans = speechSpans(audio.samples, audio.sampleRate);
  if (spans.length === 0) return { audio, phonemes: spoken.phonemes, spans, startS: 0, lengthS: 0 };
  // A little before the first onset: a soft start (an h, an s) sits under the threshold.
  const startS = max(0, spans[0]!.startS - 0.03);
  return { audio, phonemes: spoken.phonemes, spans, startS, lengthS: spans[spans.length - 1]!.endS - startS };
}

/**
 * Speaks `line` into `dir` and lays it out for a clip at `fps` whose speech may last `maxSpeechS`.
 * Returns null when espeak-ng spoke nothing audible (a line of punctuation).
 */
export async function prepareSpokenLine(line: string, dir: string, options: { maxSpeechS: number; signal?: AbortSignal }): Promise<SpokenLine | null> {
  let rateWpm = DEFAULT_RATE_WPM;
  let spoken = await take(line, dir, rateWpm, options.signal);
  if (spoken.spans.length === 0) return null;
  // Speed is not quite proportional to the rate (pauses shrink less), hence a second try.
  for (let tries = 0; tries < 3 && spoken.lengthS > options.maxSpeechS && rateWpm < MAX_RATE_WPM; tries++) {
    rateWpm = min(MAX_RATE_WPM, ceil((rateWpm * spoken.lengthS * 1.03) / options.maxSpeechS));
    spoken = await take(line, dir, rateWpm, options.signal);
    if (spoken.spans.length === 0) return null;
  }
  const { audio, startS } = spoken;
  const rate = audio.sampleRate;
  let lengthS = spoken.lengthS;
  let fadeS = 0.02;
  const truncated = lengthS > options.maxSpeechS;
  if (truncated) {
    // The last phrase that ends in time, if it keeps most of the line; else a fade at the limit.
    const phraseEnd = spoken.spans.map((s) => s.endS - startS).filter((end) => end <= options.maxSpeechS && end >= options.maxSpeechS * 0.6).pop();
    lengthS = phraseEnd ?? options.maxSpeechS;
    fadeS = phraseEnd === undefined ? 0.25 : 0.03;
  }
  const lead = round(SPEECH_START_S * rate);
  const from = round(startS * rate);
  const count = min(audio.samples.length - from, round((lengthS + 0.05) * rate));
  const placed = new Float32Array(lead + count);
  placed.set(audio.samples.subarray(from, from + count), lead);
  const fadeSamples = round(fadeS * rate);
  const fadeEnd = lead + round(lengthS * rate);
  for (let i = max(lead, fadeEnd - fadeSamples); i < placed.length; i++) placed[i]! *= max(0, (fadeEnd - i) / fadeSamples);
  const audioPath = path.join(dir, 'voice-placed.wav');
  await fsp.writeFile(audioPath, wavBytes({ samples: placed, sampleRate: rate }));

  const shift = (t: number) => t - startS + SPEECH_START_S;
  const endS = SPEECH_START_S + lengthS;
  const spans = spoken.spans
    .map((s) => ({ startS: shift(s.startS), endS: min(endS, shift(s.endS)) }))
    .filter((s) => s.endS > s.startS);
  const phonemes = alignPhonemes(parsePhonemes(spoken.phonemes), spoken.spans)
    .map((p) => ({ ...p, startS: shift(p.startS), endS: min(endS, shift(p.endS)) }))
    .filter((p) => p.endS > p.startS);
  return { audioPath, endS, clipS: endS + SPEECH_TAIL_S, phonemes, spans, rateWpm, truncated };
}

/** The line's mouth, frame by frame, for a clip of `frameCount` frames at `fps`. */
export function mouthFrames(line: SpokenLine, fps: number, frameCount: number): MouthFrame[] {
  return mouthTrack(line.phonemes, line.spans, { fps, frameCount, offsetS: 0 });
}
