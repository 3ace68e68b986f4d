/**
 * A spoken line as mouth shapes over time: espeak-ng's phonemes (its `-x` mnemonics, one clause a
 * line, words split by two spaces, phonemes by one) → visemes with nominal lengths → laid onto the
 * speech actually heard in the WAV → per video frame, which shape and how open.
 *
 * espeak-ng prints no phoneme timings for its own voices (`--pho` writes only for MBROLA voices,
 * which Debian does not ship), so the timing comes from two things it does give: the phoneme
 * sequence, and the audio. Each clause (a line of `-x`) is a stretch of speech between pauses; the
 * WAV's energy envelope finds those stretches, and each clause's phonemes share its stretch in
 * proportion to their nominal lengths (a stressed vowel is longer than a plosive). When the counts
 * disagree (a clause break espeak did not pause on), all phonemes share the whole speech span the
 * same way. Outside the stretches the mouth is at rest, so pauses close it whatever the estimate.
 *
 * Everything here is pure and deterministic: same phonemes, same samples → same frames.
 */
import type { Viseme } from '../reaction/animation';
const { max, min, round, sqrt } = Math;

/** How open the jaw is for each shape (FacePose.mouthOpen's scale: 0 closed, 1 wide open). */
export const VISEME_OPENNESS: Record<Viseme, number> = {
  rest: 0,
  closed: 0,
  teeth: 0.18,
  mid: 0.32,
  wide: 0.45,
  round: 0.5,
  open: 0.8,
};

interface Phoneme {
  /** espeak-ng's mnemonic without stress marks, e.g. `aI`, `t`, `i:`. */
  symbol: string;
  viseme: Viseme;
  stressed: boolean;
}

/** One clause of the line: the phonemes spoken between two pauses. */
export type Clause = Phoneme[];

const VOWEL_START = /^[aAeEiIoOuUV03@]/;

/** The mouth shape of one espeak-ng phoneme mnemonic (English voices; others map by their first letter). */
export function visemeOf(symbol: string): Viseme {
  const s = symbol.replace(/^[',%=]+/, '');
  if (s === '' || s === '_' || s.startsWith('_:') || s === '_!') return 'rest';
  const c = s[0]!;
  if (c === 'p' || c === 'b' || c === 'm') return 'closed';
  if (c === 'f' || c === 'v' || c === 'T' || c === 'D') return 'teeth';
  if (s === 'tS' || s === 'dZ' || c === 's' || c === 'z' || c === 'S' || c === 'Z') return 'teeth';
  if (c === 'w' || s === 'W') return 'round';
  if (c === 'a' || c === 'A' || c === 'V') return 'open';
  if (c === 'o' || c === 'O' || c === 'u' || c === 'U' || c === '0') return 'round';
  if (c === 'e' || c === 'E' || c === 'i' || c === 'I' || c === '3') return 'wide';
  if (c === '@') return 'mid';
  return 'mid';
}

/** Parses `espeak-ng -x --sep=' '` output: one clause a line, phonemes separated by spaces. */
export function parsePhonemes(text: string): Clause[] {
  const clauses: Clause[] = [];
  for (const line of text.split('\n')) {
    const phonemes: Phoneme[] = [];
    for (const token of line.trim().split(/\s+/)) {
      if (!token) continue;
      const stressed = /^['%]/.test(token) || /^,/.test(token);
      const symbol = token.replace(/^[',%=]+/, '');
      if (!symbol) continue;
      phonemes.push({ symbol, viseme: visemeOf(symbol), stressed });
    }
    if (phonemes.length > 0) clauses.push(phonemes);
  }
  return clauses;
}

/** Nominal length in seconds at espeak-ng's default 175 words a minute: only the ratios matter. */
function nominalLengthS(p: Phoneme): number {
  const s = p.symbol;
  if (VOWEL_START.test(s)) {
    const diphthong = s.replace(/[:#]/g, '').length >= 2 && VOWEL_START.test(s[1] ?? '');
    let length = p.stressed ? 0.14 : 0.08;
    if (s.includes(':')) length += 0.04;
    if (diphthong) length += 0.04;
    return length;
  }
  if (p.viseme === 'teeth') return 0.09;
  if (/^[ptkbdg]/.test(s)) return 0.07;
  return 0.06;
}

export interface Span {
  startS: number;
  endS: number;
}

/** A phoneme placed in time, relative to the start of the WAV. */
export interface TimedPhoneme extends Span {
  symbol: string;
  viseme: Viseme;
}

export interface EnvelopeOptions {
  /** Window of the energy envelope (default 10 ms). */
  hopS?: number;
  /** Silences shorter than this are inside a stretch of speech (stop closures, word joins). Default 100 ms. */
  mergeGapS?: number;
  /** Stretches shorter than this are clicks, not speech. Default 40 ms. */
  minSpeechS?: number;
}

/**
 * The stretches of speech in mono samples (-1..1): windows whose RMS is above 5% of the loudest
 * window's, joined across short silences.
 */
export function speechSpans(samples: Float32Array, sampleRate: number, options: EnvelopeOptions = {}): Span[] {
  const hop = max(1, round((options.hopS ?? 0.01) * sampleRate));
  const mergeGapS = options.mergeGapS ?? 0.1;
  const minSpeechS = options.minSpeechS ?? 0.04;
  const rms: number[] = [];
  for (let start = 0; start < samples.length; start += hop) {
    const end = min(samples.length, start + hop);
    let sum = 0;
    for (let i = start; i < end; i++) sum += samples[i]! * samples[i]!;
    rms.push(sqrt(sum / (end - start)));
  }
  const loudest = max(0, ...rms);
  if (loudest < 1e-4) return [];
  const threshold = max(loudest * 0.05, 1e-3);
  const spans: Span[] = [];
  let open: number | null = null;
  rms.forEach((value, i) => {
    if (value >= threshold && open === null) open = i;
    if (value < threshold && open !== null) {
      spans.push({ startS: (open * hop) / sampleRate, endS: (i * hop) / sampleRate });
      open = null;
    }
  });
  if (open !== null) spans.push({ startS: (open * hop) / sampleRate, endS: samples.length / sampleRate });
  const merged: Span[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.startS - last.endS < mergeGapS) last.endS = span.endS;
    else merged.push({ ...span });
  }
  return merged.filter((s) => s.endS - s.startS >= minSpeechS);
}

/** Shares `span` among `phonemes` in proportion to their nominal lengths. */
function spread(phonemes: readonly Phoneme[], span: Span): TimedPhoneme[] {
  const total = phonemes.reduce((sum, p) => sum + nominalLengthS(p), 0);
  const scale = (span.endS - span.startS) / total;
  let at = span.startS;
  return phonemes.map((p) => {
    const startS = at;
    at += nominalLengthS(p) * scale;
    return { symbol: p.symbol, viseme: p.viseme, startS, endS: at };
  });
}

/**
 * Places the clauses' phonemes on the stretches of speech: clause by clause when there are as many
 * stretches as clauses, else all of them across the whole span (first onset to last offset).
 */
export function alignPhonemes(clauses: readonly Clause[], spans: readonly Span[]): TimedPhoneme[] {
  const all = clauses.flat();
  if (all.length === 0 || spans.length === 0) return [];
  if (clauses.length === spans.length) return clauses.flatMap((clause, i) => spread(clause, spans[i]!));
  return spread(all, { startS: spans[0]!.startS, endS: spans[spans.length - 1]!.endS });
}

/** What the mouth does in one video frame. */
export interface MouthFrame {
  viseme: Viseme;
  /** Jaw opening, FacePose.mouthOpen's scale. */
  open: number;
  /** 0 = the expression's own mouth, 1 = the speech's; ramps at the line's start and end. */
  weight: number;
}

export interface MouthTrackOptions {
  fps: number;
  frameCount: number;
  /** Where the WAV starts in the clip, seconds. */
  offsetS: number;
  /** The mouth moves this much before the sound it makes (people see it first). Default 40 ms. */
  leadS?: number;
}

/**
 * Per frame, the mouth over the frame's own time window [t - ½ frame, t + ½ frame] (shifted by the
 * lead): openness is the window's average (a phoneme shorter than a frame still counts), the shape
 * is the one that covers most of it, except that a lip closure (m/b/p) covering a third of the
 * window wins: closed lips are what viewers check lip-sync by.
 */
export function mouthTrack(phonemes: readonly TimedPhoneme[], spans: readonly Span[], options: MouthTrackOptions): MouthFrame[] {
  const { fps, frameCount, offsetS } = options;
  const lead = options.leadS ?? 0.04;
  const half = 0.5 / fps;
  const first = spans[0]?.startS;
  const last = spans[spans.length - 1]?.endS;
  const frames: MouthFrame[] = [];
  for (let i = 0; i < frameCount; i++) {
    const t = i / fps - offsetS + lead;
    const from = t - half;
    const to = t + half;
    const cover = new Map<Viseme, number>();
    let open = 0;
    let covered = 0;
    for (const p of phonemes) {
      const overlap = min(to, p.endS) - max(from, p.startS);
      if (overlap <= 0) continue;
      // Inside a phoneme but in a silence the envelope found (a pause the estimate ran over): rest.
      const heard = spans.some((s) => s.startS < p.endS && s.endS > p.startS && t >= s.startS - half && t <= s.endS + half);
      const viseme = heard ? p.viseme : 'rest';
      cover.set(viseme, (cover.get(viseme) ?? 0) + overlap);
      open += VISEME_OPENNESS[viseme] * overlap;
      covered += overlap;
    }
    const window = to - from;
    let viseme: Viseme = 'rest';
    if (covered > 0) {
      if ((cover.get('closed') ?? 0) >= window / 3) viseme = 'closed';
      else viseme = [...cover.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
    }
    const weight = first === undefined || last === undefined ? 0 : ramp(t, first - 0.12, first) * (1 - ramp(t, last + 0.04, last + 0.16));
    frames.push({ viseme, open: viseme === 'closed' ? 0 : open / window, weight });
  }
  return frames;
}

function ramp(t: number, from: number, to: number): number {
  if (t <= from) return 0;
  if (t >= to) return 1;
  return (t - from) / (to - from);
}
