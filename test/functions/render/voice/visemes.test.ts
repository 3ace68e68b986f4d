/**
 * The voice line's timing, without espeak-ng: phonemes → mouth shapes → stretches of speech heard
 * in the audio → per frame, shape and openness; and those frames laid over a reaction.
 */
import { NEUTRAL_FACE, REST_CAMERA, type ReactionFrame } from '#functions/render/reaction/animation';
import { framesToLength, speakingFrames } from '#functions/render/voice/lip-sync';
import { readWav, wavBytes } from '#functions/render/voice/spoken-line';
import {
  alignPhonemes,
  mouthTrack,
  parsePhonemes,
  speechSpans,
  VISEME_OPENNESS,
  visemeOf,
  type TimedPhoneme,
} from '#functions/render/voice/visemes';
const { abs, max, PI, round, sin } = Math;

/** What `espeak-ng -v en-us -x --sep=' '` printed for "Oh my god, I can't believe it!" (espeak-ng 1.51). */
const ESPEAK_X = "'oU  m aI  g '0 d\naI  k 'a n t  b I# l 'i: v  I t\n";

/** `seconds` of mono samples at `rate`, a 200 Hz tone inside `tones`, silence elsewhere. */
function toneTrack(seconds: number, rate: number, tones: Array<[number, number]>): Float32Array {
  const samples = new Float32Array(round(seconds * rate));
  for (const [from, to] of tones) {
    for (let i = round(from * rate); i < round(to * rate); i++) samples[i] = 0.5 * sin((2 * PI * 200 * i) / rate);
  }
  return samples;
}

const timed = (symbol: string, startS: number, endS: number): TimedPhoneme => ({ symbol, viseme: visemeOf(symbol), startS, endS });

describe('phonemes to mouth shapes', () => {
  test('lips close for m/b/p, teeth for f/v and s, round for o/u/w, wide for e/i, open for a', () => {
    expect(['m', 'b', 'p'].map(visemeOf)).toEqual(['closed', 'closed', 'closed']);
    expect(['f', 'v', 's', 'z', 'S', 'tS', 'T'].map(visemeOf)).toEqual(Array(7).fill('teeth'));
    expect(['oU', 'u:', 'w', 'O:', '0'].map(visemeOf)).toEqual(Array(5).fill('round'));
    expect(['i:', 'I', 'E', 'eI', '3:'].map(visemeOf)).toEqual(Array(5).fill('wide'));
    expect(['a', 'aI', 'A:', 'V', 'aU'].map(visemeOf)).toEqual(Array(5).fill('open'));
    expect(['t', 'd', 'n', 'k', 'l', 'r', '@'].map(visemeOf)).toEqual(Array(7).fill('mid'));
    expect(VISEME_OPENNESS.closed).toBe(0);
    expect(VISEME_OPENNESS.open).toBeGreaterThan(VISEME_OPENNESS.round);
    expect(VISEME_OPENNESS.round).toBeGreaterThan(VISEME_OPENNESS.teeth);
  });

  test("espeak-ng's -x output: one clause a line, stress marks read and dropped", () => {
    const clauses = parsePhonemes(ESPEAK_X);
    expect(clauses.map((c) => c.map((p) => p.symbol).join(' '))).toEqual(['oU m aI g 0 d', 'aI k a n t b I# l i: v I t']);
    expect(clauses[0]![0]).toEqual({ symbol: 'oU', viseme: 'round', stressed: true });
    expect(clauses[0]![1]).toEqual({ symbol: 'm', viseme: 'closed', stressed: false });
    expect(parsePhonemes('\n  \n')).toEqual([]);
  });
});

describe('stretches of speech in the audio', () => {
  const rate = 22050;

  test('two phrases apart are two stretches; a stop closure inside a word is not a pause', () => {
    // 0.20-0.60 s with a 50 ms closure at 0.40; silence; 0.90-1.30 s.
    const samples = toneTrack(1.6, rate, [[0.2, 0.4], [0.45, 0.6], [0.9, 1.3]]);
    const spans = speechSpans(samples, rate);
    expect(spans).toHaveLength(2);
    expect(spans[0]!.startS).toBeCloseTo(0.2, 1);
    expect(spans[0]!.endS).toBeCloseTo(0.6, 1);
    expect(spans[1]!.startS).toBeCloseTo(0.9, 1);
    expect(spans[1]!.endS).toBeCloseTo(1.3, 1);
    expect(speechSpans(new Float32Array(rate), rate)).toEqual([]);
  });

  test('a WAV written and read back keeps its samples', () => {
    const samples = toneTrack(0.1, rate, [[0, 0.1]]);
    const back = readWav(wavBytes({ samples, sampleRate: rate }));
    expect(back.sampleRate).toBe(rate);
    expect(back.samples).toHaveLength(samples.length);
    expect(max(...back.samples.map((v, i) => abs(v - samples[i]!)))).toBeLessThan(1e-4);
  });

  test('clause by clause when the stretches match the clauses, else spread over the whole span by nominal length', () => {
    const clauses = parsePhonemes(ESPEAK_X);
    const two = alignPhonemes(clauses, [{ startS: 0.1, endS: 0.7 }, { startS: 0.9, endS: 1.8 }]);
    expect(two).toHaveLength(clauses.flat().length);
    expect(two[0]!.startS).toBeCloseTo(0.1);
    expect(two[5]!.endS).toBeCloseTo(0.7); // the first clause's last phoneme ends its stretch
    expect(two[6]!.startS).toBeCloseTo(0.9);
    expect(two[two.length - 1]!.endS).toBeCloseTo(1.8);
    // Stressed vowels get more time than consonants.
    expect(two[0]!.endS - two[0]!.startS).toBeGreaterThan(two[1]!.endS - two[1]!.startS);
    const one = alignPhonemes(clauses, [{ startS: 0.1, endS: 1.8 }]);
    expect(one[0]!.startS).toBeCloseTo(0.1);
    expect(one[one.length - 1]!.endS).toBeCloseTo(1.8);
    for (let i = 1; i < one.length; i++) expect(one[i]!.startS).toBeCloseTo(one[i - 1]!.endS);
    expect(alignPhonemes(clauses, [])).toEqual([]);
  });
});

describe('the mouth, frame by frame', () => {
  const fps = 30;
  // "ma" then a pause, then "pa": each phoneme 0.2 s, speech from 0.3 s.
  const phonemes = [timed('m', 0.3, 0.5), timed('a', 0.5, 0.7), timed('p', 1.2, 1.4), timed('a', 1.4, 1.6)];
  const spans = [{ startS: 0.3, endS: 0.7 }, { startS: 1.2, endS: 1.6 }];
  const track = mouthTrack(phonemes, spans, { fps, frameCount: 60, offsetS: 0, leadS: 0 });
  const at = (s: number) => track[round(s * fps)]!;

  test('closed on m and p, open on a, at rest in the pause and before the line', () => {
    expect(at(0.4)).toMatchObject({ viseme: 'closed', open: 0, weight: 1 });
    expect(at(0.6)).toMatchObject({ viseme: 'open', weight: 1 });
    expect(at(0.6).open).toBeCloseTo(VISEME_OPENNESS.open);
    expect(at(0.95)).toMatchObject({ viseme: 'rest', open: 0 });
    expect(at(1.3).viseme).toBe('closed');
    expect(at(1.5).viseme).toBe('open');
    expect(at(0).weight).toBe(0);
    expect(at(1.95).weight).toBe(0);
  });

  test('a frame across a boundary averages the openness; a lip closure over a third of it wins the shape', () => {
    // Frame at 0.5 s spans 0.483-0.517: half m, half a.
    const boundary = at(0.5);
    expect(boundary.viseme).toBe('closed');
    expect(boundary.open).toBe(0);
    const blended = mouthTrack([timed('i:', 0, 0.5), timed('a', 0.5, 1)], [{ startS: 0, endS: 1 }], { fps, frameCount: 30, offsetS: 0, leadS: 0 })[15]!;
    expect(blended.open).toBeCloseTo((VISEME_OPENNESS.wide + VISEME_OPENNESS.open) / 2, 2);
  });

  test('the mouth leads the sound, and the clip offset moves everything', () => {
    const led = mouthTrack(phonemes, spans, { fps, frameCount: 60, offsetS: 0, leadS: 0.1 });
    // With a 100 ms lead the "a" shows 3 frames earlier.
    expect(led.findIndex((m) => m.viseme === 'open')).toBe(track.findIndex((m) => m.viseme === 'open') - 3);
    const late = mouthTrack(phonemes, spans, { fps, frameCount: 60, offsetS: 0.2, leadS: 0 });
    expect(late.findIndex((m) => m.viseme === 'open')).toBe(track.findIndex((m) => m.viseme === 'open') + 6);
  });

  test('same input, same track', () => {
    expect(mouthTrack(phonemes, spans, { fps, frameCount: 60, offsetS: 0, leadS: 0 })).toEqual(track);
  });

  test('over a reaction: the jaw follows the speech, the shape is set while it dominates, the rest of the face is kept', () => {
    const face = { ...NEUTRAL_FACE, mouthOpen: 0.9, browRaise: 0.8, eyeOpen: 1.4 };
    const frames: ReactionFrame[] = Array.from({ length: 60 }, () => ({ face, camera: REST_CAMERA, expression: { emotion: 'shocked', intensity: 1 } }));
    const spoken = speakingFrames(frames, track);
    const f = (s: number) => spoken[round(s * fps)]!;
    expect(f(0)).toBe(frames[0]); // before the line: the expression as it was
    expect(f(0.4).face.mouthOpen).toBe(0);
    expect(f(0.4).viseme).toBe('closed');
    expect(f(0.6).face.mouthOpen).toBeCloseTo(VISEME_OPENNESS.open);
    expect(f(0.6).viseme).toBe('open');
    expect(f(0.6).face).toMatchObject({ browRaise: 0.8, eyeOpen: 1.4 });
    expect(f(0.6).expression).toEqual(frames[0]!.expression);
    // Easing in: part speech, part expression, and no shape yet.
    const easing = spoken.find((s, i) => track[i]!.weight > 0 && track[i]!.weight < 0.5);
    if (easing) expect(easing.viseme).toBeUndefined();
  });

  test('frames to a length: kept when long enough, re-planned when a planner is given, else the last pose held', () => {
    const frames: ReactionFrame[] = [0, 1, 2].map((i) => ({ face: { ...NEUTRAL_FACE, smile: i / 10 }, camera: REST_CAMERA }));
    expect(framesToLength(frames, 2)).toBe(frames);
    const held = framesToLength(frames, 5);
    expect(held).toHaveLength(5);
    expect(held[4]).toBe(frames[2]);
    expect(framesToLength(frames, 5, (n) => Array.from({ length: n }, () => frames[0]!))).toEqual(Array(5).fill(frames[0]));
  });
});
