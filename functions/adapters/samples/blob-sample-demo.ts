/**
 * The sample clip in the blob store: found under a key naming its version and the canonical encoding
 * (one read), made by the render wing (render/sample) where the drawing is bundled and stored there
 * for every later product, on any instance. Optionally a local directory keeps a made clip across
 * stacks on one machine (the test stacks, which each have their own bucket).
 */
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { BlobStore } from '#ports/blob-store';
import type { NormalisedDemo } from '#ports/demo-media';
import type { SampleDemo, StoredSampleDemo } from '#ports/sample-demo';
import { SAMPLE_DEMO, sampleDemoKey } from '#domain/sample-product';
import { LOUDNESS_TARGET } from '#domain/sound';
import { CANONICAL_ENCODING_ID } from '#render';

/** Writes the clip to a path and answers what it wrote (render/sample's renderSampleDemo). */
export type SampleDemoRenderer = (outputPath: string) => Promise<NormalisedDemo>;

/** What the stored clip is: its spec, which the maker checked the clip against before storing it. */
const described = (sizeBytes: number): NormalisedDemo => ({
  encoding: CANONICAL_ENCODING_ID,
  durationS: SAMPLE_DEMO.durationS,
  width: SAMPLE_DEMO.width,
  height: SAMPLE_DEMO.height,
  sizeBytes,
  loudnessLufs: LOUDNESS_TARGET.integratedLufs,
});

/** A clip that is not what its spec says would be described wrongly on every product: it is never stored. */
function checked(made: NormalisedDemo): NormalisedDemo {
  const expected = described(made.sizeBytes);
  const off: (keyof NormalisedDemo)[] = (['encoding', 'width', 'height', 'loudnessLufs'] as const).filter((field) => made[field] !== expected[field]);
  if (Math.abs(made.durationS - expected.durationS) > 0.01) off.push('durationS');
  if (off.length > 0) throw new Error(`the sample clip came out unlike its spec (${off.map((f) => `${f}: ${made[f]}, not ${expected[f]}`).join('; ')})`);
  return expected;
}

export class BlobSampleDemo implements SampleDemo {
  private readonly key = sampleDemoKey(CANONICAL_ENCODING_ID);
  /** One make per process, however many products ask at once. */
  private making: Promise<StoredSampleDemo> | undefined;

  constructor(
    private readonly blobs: BlobStore,
    private readonly options: { render?: SampleDemoRenderer; cacheDir?: string } = {},
  ) {}

  async find(): Promise<StoredSampleDemo | undefined> {
    const size = await this.blobs.sizeOf(this.key);
    return size === undefined ? undefined : { key: this.key, demo: described(size) };
  }

  make(): Promise<StoredSampleDemo> {
    this.making ??= this.store().finally(() => {
      this.making = undefined;
    });
    return this.making;
  }

  private async store(): Promise<StoredSampleDemo> {
    const cached = this.options.cacheDir ? join(this.options.cacheDir, basename(this.key)) : null;
    if (cached && (await fsp.stat(cached).then(() => true, () => false))) {
      await this.blobs.putFile(this.key, cached, 'video/mp4');
      return { key: this.key, demo: described((await fsp.stat(cached)).size) };
    }
    const render = this.options.render;
    if (!render) throw new Error('drawing the sample clip is not bundled with this function: the sample-demo worker makes it');
    const dir = await fsp.mkdtemp(join(tmpdir(), 'rs-sample-demo-'));
    try {
      const file = join(dir, 'sample.mp4');
      const demo = checked(await render(file));
      await this.blobs.putFile(this.key, file, 'video/mp4');
      if (cached) {
        await fsp.mkdir(this.options.cacheDir!, { recursive: true });
        const partial = `${cached}.${randomUUID()}`;
        await fsp.copyFile(file, partial);
        await fsp.rename(partial, cached);
      }
      return { key: this.key, demo };
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }
}
