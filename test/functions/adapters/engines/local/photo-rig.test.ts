/** Photo avatars stored without landmarks get them when they are first animated; one without a face is not animated. */
import { access, copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createLocalEngine, type PhotoRenderer } from '#adapters/engines/local/engine';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-photo-rig-'));
  await writeFile(join(dir, 'avatar.png'), await sharp({ create: { width: 400, height: 400, channels: 3, background: '#c96' } }).png().toBuffer());
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const blobs = {
  putFile: (key: string, file: string) => copyFile(file, join(dir, key.replaceAll('/', '_'))),
  getToFile: (key: string, file: string) => copyFile(join(dir, key), file),
};

function recordingRenderer(found: unknown = { kind: 'photo-face', version: 1 }): PhotoRenderer & { rigsPrepared: unknown[]; rigCalls: number } {
  const recorder = {
    rigsPrepared: [] as unknown[],
    rigCalls: 0,
    async rigFromImage() {
      recorder.rigCalls++;
      return found;
    },
    async prepare(_image: string, rig: unknown, options: { width: number; height: number }) {
      recorder.rigsPrepared.push(rig);
      // Stripes, not a flat fill: the hand-held camera's movement must show, or the freeze guard
      // (render/reaction/freeze-guard.ts) redraws every frame trying to make a flat picture move.
      return { width: options.width, height: options.height, drawFrame: (ctx: { fillStyle: string; fillRect: (...a: number[]) => void }) => {
        for (let x = 0; x < options.width; x += 24) {
          ctx.fillStyle = (x / 24) % 2 === 0 ? '#224' : '#c96';
          ctx.fillRect(x, 0, 24, options.height);
        }
      } };
    },
  };
  return recorder as never;
}

describe('animating a photo avatar', () => {
  test('an avatar without a rig has its landmarks computed before rendering', async () => {
    const photo = recordingRenderer();
    const engine = createLocalEngine({ photo, blobs, tmpDir: dir });
    const avatar = { id: 1, source: 'upload' as const, imageKey: 'avatar.png', width: 400, height: 400 };
    const clip = await engine.reactionFromPrompt(avatar, 'shocked', { seed: 1, outputKey: 'out/a.mp4' });
    expect(clip.durationS).toBeGreaterThanOrEqual(3);
    expect(photo.rigCalls).toBe(1);
    expect(photo.rigsPrepared).toEqual([{ kind: 'photo-face', version: 1 }]);
  }, 60_000);

  test('an avatar whose rig is stored is not analysed again', async () => {
    const photo = recordingRenderer();
    const engine = createLocalEngine({ photo, blobs, tmpDir: dir });
    const stored = { kind: 'photo-face', version: 1, stored: true };
    await engine.reactionFromPrompt({ id: 2, source: 'upload', imageKey: 'avatar.png', width: 400, height: 400, rig: stored }, 'laughing', {
      seed: 2,
      outputKey: 'out/b.mp4',
    });
    expect(photo.rigCalls).toBe(0);
    expect(photo.rigsPrepared).toEqual([stored]);
  }, 60_000);

  test('an avatar whose image shows no face (stored before uploads were checked) fails as invalid input, nothing stored', async () => {
    const photo = recordingRenderer(null);
    const engine = createLocalEngine({ photo, blobs, tmpDir: dir });
    const avatar = { id: 3, source: 'upload' as const, imageKey: 'avatar.png', width: 400, height: 400 };
    const failure = await engine.reactionFromPrompt(avatar, 'shocked', { seed: 3, outputKey: 'out/c.mp4' }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'EngineError', code: 'invalid_input', retryable: false, message: expect.stringMatching(/could not find a face.*nothing was charged/) });
    expect(photo.rigsPrepared).toEqual([]);
    await expect(access(join(dir, 'out_c.mp4'))).rejects.toThrow();
  });
});
