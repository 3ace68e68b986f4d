/**
 * The built-in music beds (domain/sound BUILT_IN_TRACKS), each a short arrangement played on the
 * voices in ./voices: drums, bass, a pad and an arpeggio over a four-chord loop. Every hit and chord
 * is rendered once and placed many times, so a minute of music costs a fraction of a second.
 */
import { hashSeed, randomFrom } from '../../reaction/seeded-random';
import { bass, bell, hat, kick, pad, pluck, snare } from './voices';
import { midiToHz, StereoBuffer } from './signal';

interface BedStyle {
  bpm: number;
  /** MIDI note of the key's root (bass octave). */
  root: number;
  /** Four chords, semitones above the root. */
  chords: readonly (readonly number[])[];
  /** 16 steps per bar: 'x' plays. */
  kick: string;
  snare: string;
  hat: string;
  /** Steps the bass plays the chord's root on. */
  bass: string;
  /** The arpeggio's instrument and steps (it walks the chord's notes an octave or two up). */
  arp: { voice: 'pluck' | 'bell'; steps: string; octave: number } | null;
  padBrightness: number | null;
  /** Gains of the layers. */
  mix: { drums: number; bass: number; pad: number; arp: number };
}

const MAJOR_POP = [[0, 4, 7], [7, 11, 14], [9, 12, 16], [5, 9, 12]] as const;
const MINOR_DRAMA = [[0, 3, 7], [8, 12, 15], [3, 7, 10], [10, 14, 17]] as const;

const STYLES: Record<string, BedStyle> = {
  'sunny-pop': {
    bpm: 118, root: 36 + 7, chords: MAJOR_POP,
    kick: 'x...x...x...x...', snare: '....x.......x...', hat: '..x...x...x...x.', bass: 'x..x..x.x..x..x.',
    arp: { voice: 'pluck', steps: 'x.x.x.x.x.x.x.x.', octave: 2 }, padBrightness: 2400, mix: { drums: 0.8, bass: 0.5, pad: 0.5, arp: 0.35 },
  },
  'lofi-study': {
    bpm: 80, root: 36 + 2, chords: [[0, 3, 7, 10], [5, 8, 12, 15], [10, 14, 17, 21], [3, 7, 10, 14]],
    kick: 'x.......x.x.....', snare: '....x.......x...', hat: 'x.x.x.x.x.x.x.x.', bass: 'x.......x.......',
    arp: { voice: 'bell', steps: 'x.....x.....x...', octave: 2 }, padBrightness: 900, mix: { drums: 0.55, bass: 0.5, pad: 0.7, arp: 0.2 },
  },
  'cinematic-rise': {
    bpm: 90, root: 36, chords: MINOR_DRAMA,
    kick: 'x.......x.......', snare: '................', hat: '................', bass: 'x...............',
    arp: { voice: 'pluck', steps: 'x.xxx.xxx.xxx.xx', octave: 1 }, padBrightness: 1400, mix: { drums: 0.9, bass: 0.6, pad: 0.9, arp: 0.3 },
  },
  'bouncy-pizzicato': {
    bpm: 124, root: 36 + 5, chords: MAJOR_POP,
    kick: 'x.......x.......', snare: '....x.......x...', hat: '................', bass: 'x...x...x...x...',
    arp: { voice: 'pluck', steps: 'x.x.xx.xx.x.xx.x', octave: 2 }, padBrightness: null, mix: { drums: 0.5, bass: 0.6, pad: 0, arp: 0.6 },
  },
  'stadium-drums': {
    bpm: 100, root: 36 + 4, chords: [[0, 3, 7], [0, 3, 7], [8, 12, 15], [10, 14, 17]],
    kick: 'x..x..x.x..x..x.', snare: '....x..x....x...', hat: 'xxxxxxxxxxxxxxxx', bass: 'x..x..x.x..x..x.',
    arp: null, padBrightness: 1600, mix: { drums: 1, bass: 0.6, pad: 0.5, arp: 0 },
  },
  'soft-keys': {
    bpm: 72, root: 36 + 9, chords: [[0, 4, 7, 11], [5, 9, 12, 16], [9, 12, 16, 19], [7, 11, 14, 17]],
    kick: '................', snare: '................', hat: '................', bass: 'x.......x.......',
    arp: { voice: 'bell', steps: 'x...x...x...x...', octave: 2 }, padBrightness: 1100, mix: { drums: 0, bass: 0.4, pad: 0.8, arp: 0.4 },
  },
  'ticking-pulse': {
    bpm: 128, root: 36 + 1, chords: [[0, 3, 7], [0, 3, 8], [0, 3, 7], [-1, 3, 6]],
    kick: 'x...x...x...x...', snare: '................', hat: 'x.x.x.x.x.x.x.x.', bass: 'xxxxxxxxxxxxxxxx',
    arp: { voice: 'bell', steps: 'x...............', octave: 3 }, padBrightness: 800, mix: { drums: 0.7, bass: 0.45, pad: 0.6, arp: 0.25 },
  },
  'toy-box': {
    bpm: 132, root: 36 + 12, chords: MAJOR_POP,
    kick: 'x.....x...x.....', snare: '....x.......x...', hat: '..x...x...x...x.', bass: 'x...x...x...x...',
    arp: { voice: 'bell', steps: 'xxx.xxx.xxx.xxxx', octave: 2 }, padBrightness: null, mix: { drums: 0.5, bass: 0.5, pad: 0, arp: 0.45 },
  },
};

const plays = (pattern: string, step: number) => pattern[step % 16] === 'x';

/** The bed as a stereo buffer of `seconds` (the catalogue's duration), the same on every run. */
export function renderBed(id: string, seconds: number): StereoBuffer {
  const style = STYLES[id];
  if (!style) throw new Error(`no built-in bed "${id}"`);
  const random = randomFrom(hashSeed('bed', id));
  const out = new StereoBuffer(seconds);
  const stepS = 60 / style.bpm / 4;
  const barS = stepS * 16;
  const hits = { kick: kick(), snare: snare(random), hat: hat(random), openHat: hat(random, 0.2) };
  const pads = style.chords.map((chord) => (style.padBrightness ? pad(chord.map((n) => midiToHz(style.root + 24 + n)), barS, style.padBrightness) : null));
  const notes = new Map<string, Float32Array>();
  const note = (key: string, make: () => Float32Array) => notes.get(key) ?? notes.set(key, make()).get(key)!;

  for (let bar = 0; bar * barS < seconds; bar++) {
    const chordIndex = bar % style.chords.length;
    const chord = style.chords[chordIndex]!;
    const barAt = bar * barS;
    const padVoice = pads[chordIndex];
    if (padVoice) {
      out.add(barAt, padVoice, style.mix.pad, -0.3);
      out.add(barAt, padVoice, style.mix.pad, 0.3);
    }
    for (let step = 0; step < 16; step++) {
      const at = barAt + step * stepS;
      if (plays(style.kick, step)) out.add(at, hits.kick, style.mix.drums);
      if (plays(style.snare, step)) out.add(at, hits.snare, style.mix.drums * 0.6, 0.1);
      if (plays(style.hat, step)) out.add(at, step % 8 === 6 ? hits.openHat : hits.hat, style.mix.drums * 0.25, 0.35);
      if (plays(style.bass, step)) {
        const hz = midiToHz(style.root + chord[0]!);
        out.add(at, note(`bass${hz}`, () => bass(hz, stepS * 1.8)), style.mix.bass);
      }
      if (style.arp && plays(style.arp.steps, step)) {
        const midi = style.root + 12 * style.arp.octave + chord[step % chord.length]!;
        const voice = style.arp.voice;
        const sound = note(`${voice}${midi}`, () => (voice === 'pluck' ? pluck(random, midiToHz(midi), 1.2) : bell(midiToHz(midi), 1.6)));
        out.add(at, sound, style.mix.arp, step % 2 === 0 ? -0.4 : 0.4);
      }
    }
  }
  out.fadeEnds(5, 400);
  return out;
}
