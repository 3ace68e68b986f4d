/**
 * The built-in beds and effects as files: synthesised (./synth), then levelled and encoded like every
 * sound we mix (AAC, 48 kHz stereo, −14 LUFS), so a bed and an effect sit at the same loudness as a
 * levelled demo and the mix only sets their balance.
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { builtInTrack, REACTION_EFFECTS } from '#domain/sound';
import { fileArg } from '../ffmpeg/binaries';
import { encodeLevelled } from './level-encode';
import { renderBed } from './synth/beds';
import { renderEffect } from './synth/effects';
import type { StereoBuffer } from './synth/signal';
import { wavOf } from './synth/wav';

/** Bump when a sound changes, so stored renders of the old one are not reused. */
export const BUILT_IN_SOUNDS_VERSION = 2;

const EFFECT_IDS = new Set(Object.values(REACTION_EFFECTS).map((effect) => effect.id));


function synthesise(id: string): StereoBuffer {
  const track = builtInTrack(id);
  if (track) return renderBed(id, track.durationS);
  if (EFFECT_IDS.has(id)) return renderEffect(id);
  throw new Error(`no built-in sound "${id}"`);
}

/** Writes the built-in sound `id` to `outputPath` (.m4a), levelled; the same bytes on every run. */
export async function renderBuiltInSound(id: string, outputPath: string): Promise<void> {
  const wavPath = `${outputPath}.${randomUUID()}.wav`;
  try {
    await fsp.writeFile(wavPath, wavOf(synthesise(id)));
    // Nothing above 15 kHz: AAC at 128 kbit/s drops it anyway, and dropping it before the limiter keeps the encode from reshaping peaks.
    await encodeLevelled({ inputs: ['-i', fileArg(wavPath)], graph: '[0:a]lowpass=f=15000:poles=2[out]', outputPath, verifyEncoded: true });
  } finally {
    await fsp.rm(wavPath, { force: true });
  }
}
