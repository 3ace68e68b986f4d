/**
 * The sample product's clip for the test stacks, which each have their own bucket: made once per
 * machine and per version of the code that makes it (BlobSampleDemo's cacheDir, keyed like the
 * canonical reaction clip by a hash of that code), then copied into each stack that asks for it.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const SAMPLE_CODE = ['functions/render/sample', 'functions/render/encoding', 'functions/render/reaction/frame-encoder.ts', 'functions/render/sound', 'functions/domain/sample-product.ts'];

function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  if (statSync(full).isFile()) return [full];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

function sampleCodeHash(): string {
  const hash = createHash('sha256');
  for (const file of SAMPLE_CODE.flatMap(filesUnder).sort()) hash.update(relative(ROOT, file)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

export const TEST_SAMPLE_CACHE = join(ROOT, 'node_modules', '.cache', 'reaction-studio-tests', `sample-demo-${sampleCodeHash()}`);
