/**
 * The local engine speaking a voice line with Debian's espeak-ng: the clip's sound is the speech
 * (silent before it, heard where it is), the clip lasts as long as the line needs, the mouth's shapes
 * change the mouth and nothing else, the same line gives the same sound and frames, and a server
 * without espeak-ng refuses the job instead of dropping the voice.
 */
import { createCanvas } from '@napi-rs/canvas';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NEUTRAL_FACE, REST_CAMERA, type ReactionFrame } from '#functions/render/reaction/animation';
import { rigFromPrompt } from '#render';
import { createLocalEngine, RENDER_SIZE } from '#adapters/engines/local/engine';
import { reactionFrames } from '#functions/render/reaction/expression-curve';
import { drawPhotoFrame, preparePhoto } from '#functions/render/face/photo-renderer';
import { prepareIllustratedScene } from '#functions/render/illustrated/illustrated-renderer';
import { voicedFrames } from '#adapters/engines/local/voiced-frames';
import { espeakPath } from '#functions/render/voice/espeak';
import { prepareSpokenLine, SPEECH_START_S, SPEECH_TAIL_S } from '#functions/render/voice/spoken-line';
import { VISEME_OPENNESS } from '#functions/render/voice/visemes';
import { runFfmpeg, fileArg } from '#functions/render/ffmpeg/binaries';
import { audioLevels } from '#test-support/audio-levels';
import { probeMedia } from '#functions/render/ffmpeg/probe';
import { canonicalMismatches } from '#functions/render/encoding/canonical-encoding';
import { EngineError, REACTION_CLIP, type AvatarRef } from '#ports/engine';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { changedPixels } from '#test-support/pixel-diff';
import { SYNTH, syntheticFacePng, syntheticRig } from '../face/synthetic-face';
const { abs, max, min, round } = Math;

const LINE = "Oh my god, I can't believe how good this is!";
/** 99 characters: longer than five seconds at espeak-ng's default speed. */
const LONG_LINE = 'Honestly I did not expect this product to work so well, it changed my whole morning routine, wow!!';

let workDir: string;
let tmpDir: string;

beforeAll(async () => {
  workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'voice-line-test-'));
  tmpDir = path.join(workDir, 'engine-tmp');
  await fsp.mkdir(tmpDir);
});

afterAll(async () => {
  await fsp.rm(workDir, { recursive: true, force: true });
});

function avatarFrom(rig: unknown): AvatarRef {
  return { id: 1, source: 'prompt', imageKey: 'avatars/1.png', width: 1024, height: 1024, prompt: 'x', rig };
}

describe('espeak-ng on this machine', () => {
  test('is found at its fixed path', () => {
    expect(espeakPath()).toBe('/usr/bin/espeak-ng');
  });

  test('a line is placed from 0.3 s; a long one is spoken faster to fit the longest clip, never past it', async () => {
    const dir = await fsp.mkdtemp(path.join(workDir, 'line-'));
    const maxSpeechS = REACTION_CLIP.maxS - SPEECH_START_S - SPEECH_TAIL_S;
    const short = (await prepareSpokenLine(LINE, dir, { maxSpeechS }))!;
    expect(short.rateWpm).toBe(175);
    expect(short.spans[0]!.startS).toBeGreaterThanOrEqual(SPEECH_START_S);
    expect(short.spans[0]!.startS).toBeLessThan(SPEECH_START_S + 0.06);
    expect(short.clipS).toBeCloseTo(short.endS + SPEECH_TAIL_S);
    expect(short.phonemes.length).toBeGreaterThan(20);
    const long = (await prepareSpokenLine(LONG_LINE, dir, { maxSpeechS }))!;
    expect(long.rateWpm).toBeGreaterThan(175);
    expect(long.clipS).toBeLessThanOrEqual(REACTION_CLIP.maxS + 1e-9);
    expect(await prepareSpokenLine('...', dir, { maxSpeechS })).toBeNull();
  });
});

describe('a voiced reaction from the local engine', () => {
  const rig = rigFromPrompt('woman with curly red hair', 5);

  test('the clip is canonical, its sound is the line (silent before it, heard where it is), it lasts as the line needs; same line, same sound', async () => {
    const blobs = new MemoryBlobStore();
    const engine = createLocalEngine({ tmpDir, blobs });
    const clip = await engine.reactionFromPrompt(avatarFrom(rig), 'lmao this is hilarious', { seed: 5, outputKey: 'reactions/v.mp4', voiceLine: LONG_LINE });
    expect(clip).toMatchObject({ voice: true, emotion: 'laughing', engine: 'local', fps: 30 });
    // The laugh alone lasts 4 s; the long line needs (nearly) the longest clip.
    expect(clip.durationS).toBeGreaterThan(4.5);
    expect(clip.durationS).toBeLessThanOrEqual(REACTION_CLIP.maxS);
    const file = path.join(workDir, 'v.mp4');
    await fsp.writeFile(file, blobs.objects.get('reactions/v.mp4')!.data);
    const probed = await probeMedia(file);
    if (!probed.ok) throw new Error(probed.detail);
    expect(canonicalMismatches(probed.media)).toEqual([]);
    expect(probed.media.video!.frameCount).toBe(round(clip.durationS * 30));

    const before = await audioLevels(file, { fromS: 0, lengthS: 0.25 });
    const speech = await audioLevels(file, { fromS: 0.4, lengthS: 1.5 });
    expect(before.max).toBeLessThan(-60);
    expect(speech.mean).toBeGreaterThan(-35);
    expect(speech.max).toBeGreaterThan(-15);

    // Same seed, same line: the same sound (the video encoder's bytes vary by a hair between runs).
    await engine.reactionFromPrompt(avatarFrom(rig), 'lmao this is hilarious', { seed: 5, outputKey: 'reactions/w.mp4', voiceLine: LONG_LINE });
    const again = path.join(workDir, 'w.mp4');
    await fsp.writeFile(again, blobs.objects.get('reactions/w.mp4')!.data);
    const audioHash = async (f: string) => (await runFfmpeg(['-v', 'error', '-i', fileArg(f), '-map', '0:a', '-f', 'md5', '-'])).stdout.trim();
    expect(await audioHash(again)).toBe(await audioHash(file));
    expect(await fsp.readdir(tmpDir)).toEqual([]);
  }, 90_000);

  test('same seed and line, the same frames: the mouth moves during the line, the expression plays around it', async () => {
    const planned = reactionFrames({ emotion: 'shocked', intensity: 0.9, durationS: 4, seed: 7 });
    const make = async () => {
      const dir = await fsp.mkdtemp(path.join(workDir, 'frames-'));
      return (await voicedFrames(LINE, planned, dir, {}))!;
    };
    const [a, b] = [await make(), await make()];
    expect(a.frames).toEqual(b.frames);
    expect(a.frames).toHaveLength(planned.length);
    const speaking = a.frames.slice(round(SPEECH_START_S * 30) + 2, round(2.3 * 30));
    const shapes = new Set(speaking.map((f) => f.viseme));
    expect(shapes.has('closed')).toBe(true);
    expect(shapes.has('open') || shapes.has('round')).toBe(true);
    const openings = speaking.map((f) => f.face.mouthOpen);
    expect(max(...openings) - min(...openings)).toBeGreaterThan(0.4);
    // Before the line, the reaction as planned; the eyes and head are the expression's throughout.
    expect(a.frames[0]).toBe(planned[0]);
    a.frames.forEach((f, i) => expect(f.face.eyeOpen).toBe(planned[i]!.face.eyeOpen));
  });

  test('the illustrated mouth: closed and open shapes differ around the mouth, and only there', async () => {
    const frame = reactionFrames({ emotion: 'happy', intensity: 0.5, durationS: 1, seed: 1 })[0]!;
    const closed: ReactionFrame = { ...frame, face: { ...frame.face, mouthOpen: 0 }, viseme: 'closed' };
    const open: ReactionFrame = { ...frame, face: { ...frame.face, mouthOpen: VISEME_OPENNESS.open }, viseme: 'open' };
    const scene = await prepareIllustratedScene(rig, [closed, open], { seed: 1, ...RENDER_SIZE });
    const draw = (f: ReactionFrame) => {
      const canvas = createCanvas(RENDER_SIZE.width, RENDER_SIZE.height);
      scene.drawFrame(canvas.getContext('2d'), f, 0);
      return canvas.getContext('2d').getImageData(0, 0, RENDER_SIZE.width, RENDER_SIZE.height).data;
    };
    const { changed, box } = changedPixels(draw(closed), draw(open), RENDER_SIZE.width, RENDER_SIZE.height);
    const [minX, maxX, minY, maxY] = [box.x, box.x + box.width - 1, box.y, box.y + box.height - 1];
    expect(changed).toBeGreaterThan(200);
    // A mouth-sized box in the middle of the frame, not the whole face.
    expect(maxX - minX).toBeLessThan(RENDER_SIZE.width * 0.2);
    expect(maxY - minY).toBeLessThan(RENDER_SIZE.height * 0.08);
    expect(abs((minX + maxX) / 2 - RENDER_SIZE.width / 2)).toBeLessThan(RENDER_SIZE.width * 0.1);
  });

  test('the photo mouth: the speech opens the warped jaw on open vowels and shuts it on m/b/p', async () => {
    const prepared = await preparePhoto(syntheticFacePng(), syntheticRig());
    const W = 1080, H = 1920;
    const ctx = createCanvas(W, H).getContext('2d');
    const planned: ReactionFrame[] = Array.from({ length: 90 }, () => ({ face: { ...NEUTRAL_FACE }, camera: REST_CAMERA }));
    const dir = await fsp.mkdtemp(path.join(workDir, 'photo-'));
    const { frames } = (await voicedFrames(LINE, planned, dir, {}))!;
    const openFrame = frames.find((f) => f.viseme === 'open')!;
    const closedFrame = frames.find((f) => f.viseme === 'closed')!;
    const { layout } = prepared;
    // Just under the lips' meeting line, where the cavity opens (see the photo renderer's tests).
    const ox = round(SYNTH.cx * layout.scale + layout.offsetX), oy = round(480 * layout.scale + layout.offsetY);
    const brightness = (f: ReactionFrame) => {
      drawPhotoFrame(ctx, prepared, f);
      const [r, g, b] = ctx.getImageData(ox, oy, 1, 1).data;
      return (r! + g! + b!) / 3;
    };
    expect(brightness(openFrame)).toBeLessThan(brightness(closedFrame) - 30);
  });
});

describe('a server without espeak-ng', () => {
  const saved = process.env.ESPEAK_NG_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.ESPEAK_NG_PATH;
    else process.env.ESPEAK_NG_PATH = saved;
  });

  test('fails a job with a voice line with a render error that says what is missing, stores nothing, leaves nothing', async () => {
    process.env.ESPEAK_NG_PATH = path.join(workDir, 'no-such-espeak');
    const blobs = new MemoryBlobStore();
    const engine = createLocalEngine({ tmpDir, blobs });
    const error = await engine
      .reactionFromPrompt(avatarFrom(rigFromPrompt('a person', 1)), 'shocked', { seed: 1, outputKey: 'reactions/x.mp4', voiceLine: 'hello there' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'engine_failure', retryable: false });
    expect((error as Error).message).toMatch(/voice line cannot be spoken.*ESPEAK_NG_PATH.*espeak-ng/);
    expect(blobs.objects.size).toBe(0);
    expect(await fsp.readdir(tmpDir)).toEqual([]);
  });
});
