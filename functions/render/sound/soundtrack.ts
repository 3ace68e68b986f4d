/**
 * The finished video's sound as one ffmpeg filter graph: the reaction part (an effect, a music bed or
 * nothing, with the spoken voice line on top), then the demo's own audio, joined by a short crossfade.
 * A bed plays across the join and ducks (side-chained) under the demo's sound and under the voice.
 * The graph only mixes and balances; encodeLevelled brings the whole to the target level afterwards.
 */
import { fileArg } from '../ffmpeg/binaries';
import { CANONICAL } from '../encoding/canonical-encoding';
const { log10, max, round } = Math;

/** What plays under the reaction and what under the demo. Files are levelled sounds (−14 LUFS). */
export interface SoundtrackSpec {
  /** The reaction segment's exact length (whole frames), and the demo's; 0 for a reaction-only video. */
  reactionS: number;
  demoS: number;
  /** The engine's clip when it spoke a voice line: its audio is the voice. */
  voicePath: string | null;
  /** The demo file when there is a demo with sound; `gainDb` levels a demo normalised before levelling existed. */
  demo: { path: string; gainDb: number } | null;
  /** The effect under the reaction (auto). */
  effectPath: string | null;
  /**
   * A bed across the whole video: `music`'s track at full level, or auto's mood bed, which stays low
   * under a demo with sound (it only keeps gaps in the demo's sound from going dead) and carries a
   * demo with none.
   */
  bed: { path: string; role: 'music' | 'fill' } | null;
}

/** Crossfade at the join: long enough to hide the cut, short enough to keep the edit's punch. */
export const JOIN_CROSSFADE_S = 0.03;

/** Balance, in dB against the levelled parts. */
const MIX = {
  /** An effect sits a little under a levelled demo: it accents, the demo explains. */
  effectDb: -2,
  /** A bed under the reaction and, unducked, under a silent demo. */
  musicDb: -4,
  /** auto's fill under a demo that has sound: barely there until the demo pauses. */
  fillDb: -24,
  /** The voice line above everything under it. */
  voiceDb: 0,
} as const;

/** Ducking: the bed drops by up to ~18 dB within 20 ms of the key's sound, and comes back over half a second. */
const DUCK = 'sidechaincompress=threshold=0.02:ratio=12:attack=20:release=500:makeup=1';

const samplesOf = (seconds: number) => round(seconds * CANONICAL.audio.sampleRate);
// aformat alone: ffmpeg inserts a resampler only where a source differs; the sounds mixed here are
// nearly always 48 kHz stereo already, and an explicit aresample would copy every sample of them.
const CANONICAL_AUDIO = `aformat=sample_fmts=fltp:sample_rates=${CANONICAL.audio.sampleRate}:channel_layouts=${CANONICAL.audio.channelLayout}`;

export interface SoundtrackGraph {
  /** ffmpeg input arguments, in the order the graph's `[n:a]` labels count them. */
  inputs: string[];
  /** Ends in `[out]`: exactly reactionS + demoS long. */
  graph: string;
}

/** A source used by several chains is split once, one output label per use. */
const split = (labels: readonly string[]) => (labels.length === 1 ? `anull${labels[0]}` : `asplit=${labels.length}${labels.join('')}`);

/** Builds the graph; pure (no I/O), so every mix is checked by reading it. */
export function soundtrackGraph(spec: SoundtrackSpec): SoundtrackGraph {
  const inputs: string[] = [];
  let inputCount = 0;
  const input = (path: string, loop = false) => {
    inputs.push(...(loop ? ['-stream_loop', '-1'] : []), '-i', fileArg(path));
    return `[${inputCount++}:a:0]`;
  };
  const chains: string[] = [];
  const mixed: string[] = [];
  const reactionSamples = samplesOf(spec.reactionS);
  const totalSamples = samplesOf(spec.reactionS + spec.demoS);
  const demo = spec.demo && spec.demoS > 0 ? spec.demo : null;
  const fadeS = spec.demoS > 0 ? JOIN_CROSSFADE_S : 0;

  if (spec.voicePath) {
    const uses = ['[voice]', ...(spec.effectPath ? ['[voice_ducks_effect]'] : []), ...(spec.bed ? ['[voice_ducks_bed]'] : [])];
    chains.push(`${input(spec.voicePath)}${CANONICAL_AUDIO},atrim=end_sample=${reactionSamples},volume=${MIX.voiceDb}dB,${split(uses)}`);
    mixed.push('[voice]');
  }

  if (spec.effectPath) {
    const fadeOut = `afade=t=out:st=${max(0, spec.reactionS - fadeS).toFixed(4)}:d=${max(fadeS, 0.005).toFixed(4)}`;
    const effect = `${input(spec.effectPath)}${CANONICAL_AUDIO},atrim=end_sample=${reactionSamples},${fadeOut},volume=${MIX.effectDb}dB`;
    chains.push(spec.voicePath ? `${effect}[effect_dry];[effect_dry][voice_ducks_effect]${DUCK}[effect]` : `${effect}[effect]`);
    mixed.push('[effect]');
  }

  if (demo) {
    // The demo comes in under the reaction's last few milliseconds: a crossfade, not a cut.
    const delayMs = max(0, (spec.reactionS - fadeS) * 1000);
    const uses = ['[demo]', ...(spec.bed ? ['[demo_ducks_bed]'] : [])];
    chains.push(
      `${input(demo.path)}${CANONICAL_AUDIO},atrim=end_sample=${samplesOf(spec.demoS)},volume=${demo.gainDb.toFixed(2)}dB,` +
        `afade=t=in:d=${max(fadeS, 0.005).toFixed(4)},adelay=delays=${delayMs.toFixed(1)}:all=1,${split(uses)}`,
    );
    mixed.push('[demo]');
  }

  if (spec.bed) {
    // A fill bed is low under a demo with sound and plays as music where there is none.
    const levelDb = spec.bed.role === 'fill' && demo ? MIX.fillDb : MIX.musicDb;
    const bed = `${input(spec.bed.path, true)}${CANONICAL_AUDIO},atrim=end_sample=${totalSamples},volume=${levelDb}dB`;
    const keys = [...(spec.voicePath ? ['[voice_ducks_bed]'] : []), ...(demo ? ['[demo_ducks_bed]'] : [])];
    if (keys.length === 0) {
      chains.push(`${bed}[bed]`);
    } else {
      const key = keys.length === 1 ? keys[0] : '[bed_key]';
      if (keys.length > 1) chains.push(`${keys.join('')}amix=inputs=${keys.length}:duration=longest:normalize=0[bed_key]`);
      chains.push(`${bed}[bed_dry];[bed_dry]${key}${DUCK}[bed]`);
    }
    mixed.push('[bed]');
  }

  const exact = `apad=whole_len=${totalSamples},atrim=end_sample=${totalSamples}`;
  chains.push(
    mixed.length === 0
      ? `anullsrc=r=${CANONICAL.audio.sampleRate}:cl=${CANONICAL.audio.channelLayout},${exact}[out]`
      : `${mixed.join('')}amix=inputs=${mixed.length}:duration=longest:normalize=0,${exact}[out]`,
  );
  return { inputs, graph: chains.join(';') };
}

/**
 * What the mix will measure before any gain, from its parts' levels (each levelled sound is at
 * LEVELLED_LUFS) and the balance above: integrated loudness averages power over the parts that
 * sound. A first guess that spares measuring the mix before encoding it; the encode measures it too.
 */
export function expectedLufs(spec: SoundtrackSpec, levelledLufs: number): number | undefined {
  const power = (db: number) => 10 ** (db / 10);
  const sum = (...dbs: number[]) => dbs.reduce((total, db) => total + power(db), 0);
  const reaction = sum(...(spec.voicePath ? [levelledLufs + MIX.voiceDb] : []), ...(spec.effectPath ? [levelledLufs + MIX.effectDb] : []), ...(spec.bed?.role === 'music' ? [levelledLufs + MIX.musicDb] : []));
  const bedUnderDemo = spec.bed ? (spec.bed.role === 'fill' && spec.demo ? MIX.fillDb : MIX.musicDb) : null;
  // A bed under a demo with sound is mostly ducked away; it counts only where it carries the demo alone.
  const demo = spec.demo && spec.demoS > 0 ? power(levelledLufs) : bedUnderDemo !== null && spec.demoS > 0 ? power(levelledLufs + bedUnderDemo) : 0;
  const sounding = (reaction > 0 ? spec.reactionS : 0) + (demo > 0 ? spec.demoS : 0);
  if (sounding === 0) return undefined;
  return 10 * log10((reaction * spec.reactionS + demo * spec.demoS) / sounding);
}
