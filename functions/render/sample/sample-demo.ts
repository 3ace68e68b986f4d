/**
 * The sample product's demo clip, made from nothing but this code: the app screens drawn by Skia
 * (little-wins.ts) and piped into ffmpeg over a soft bed synthesised by ffmpeg's own sources (a
 * slowly breathing major-seventh chord, a breath of pink noise, a tick for each habit ticked and a
 * click for the tap), then normalised exactly as an uploaded demo is: the canonical encoding, the
 * sound levelled to the platforms' target. Drawing and sound depend on no clock and no randomness
 * but fixed seeds, so every stack makes the same clip.
 */
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { SAMPLE_DEMO } from '#domain/sample-product';
import { fileArg, runFfmpeg } from '../ffmpeg/binaries';
import { normaliseVideo, type NormaliseResult } from '../encoding/normalise';
import { encodeFrames } from '../reaction/frame-encoder';
import { drawLittleWins, TAP_AT_S, TICKS_AT_S } from './little-wins';

const { durationS, fps, frames, width, height } = SAMPLE_DEMO;

/** One decaying sine at `at` seconds: a tick or a click. */
const blip = (at: number, hz: number, gain: number, decay: number) => `${gain}*sin(2*PI*${hz}*(t-${at}))*exp(-${decay}*(t-${at}))*gte(t,${at})`;

/** The ffmpeg arguments that write the bed: lavfi sources only, no input file. */
function bedArgs(outputPath: string): string[] {
  const chord = [261.63, 329.63, 392, 493.88].map((hz, i) => `${[0.12, 0.1, 0.08, 0.05][i]}*sin(2*PI*${hz}*t)`).join('+');
  const breathing = '(0.8+0.2*sin(2*PI*0.5*t))';
  const blips = [...TICKS_AT_S.map((at) => blip(at, 880, 0.18, 28)), blip(TAP_AT_S, 1320, 0.22, 40)].join('+');
  const graph = [
    `aevalsrc='(${chord})*${breathing}+${blips}':s=48000:d=${durationS}[tones]`,
    `anoisesrc=c=pink:r=48000:a=0.02:d=${durationS}:seed=7,lowpass=f=900[air]`,
    `[tones][air]amix=inputs=2:normalize=0,lowpass=f=5000,afade=t=in:d=0.4,afade=t=out:st=${durationS - 0.8}:d=0.8,aformat=channel_layouts=stereo[bed]`,
  ].join(';');
  return ['-v', 'error', '-filter_complex', graph, '-map', '[bed]', '-c:a', 'pcm_s16le', '-y', fileArg(outputPath)];
}

/**
 * Writes the clip to `outputPath` (nothing is left there on failure) and answers what was written,
 * as the normaliser reads it back.
 */
export async function renderSampleDemo(outputPath: string, options: { timeoutMs?: number } = {}): Promise<NormaliseResult> {
  const dir = await fsp.mkdtemp(join(tmpdir(), 'rs-sample-'));
  try {
    const bed = join(dir, 'bed.wav');
    await runFfmpeg(bedArgs(bed), { timeoutMs: options.timeoutMs });
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    const drawn = join(dir, 'drawn.mp4');
    await encodeFrames({
      outputPath: drawn,
      frameCount: frames,
      audioPath: bed,
      timeoutMs: options.timeoutMs,
      frame: (index) => {
        drawLittleWins(ctx, index / fps);
        // Skia draws lazily: reading the pixels is where the frame is rastered.
        return canvas.data();
      },
    });
    return await normaliseVideo(drawn, outputPath, { timeoutMs: options.timeoutMs });
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
