/**
 * The sample clip's two text weights, registered with Skia once per process from the @fontsource
 * files SAMPLE_FONTS names (found by module resolution, as the caption fonts are).
 */
import { GlobalFonts } from '@napi-rs/canvas';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { SAMPLE_FONTS } from './sample-fonts';

export type Weight = 600 | 800;

const FAMILIES: Record<Weight, string> = { 600: 'Sample Montserrat SemiBold', 800: 'Sample Montserrat ExtraBold' };

let registered = false;

function register(): void {
  if (registered) return;
  const { packageName, folder, files } = SAMPLE_FONTS.text;
  const dir = path.join(path.dirname(require.resolve(`${packageName}/package.json`)), folder);
  const found = readdirSync(dir).filter((f) => files.test(f));
  for (const weight of [600, 800] as const) {
    const file = found.find((f) => f.includes(`-${weight}-`));
    if (!file) throw new Error(`sample fonts: no ${weight} file matching ${files} in ${dir}`);
    if (!GlobalFonts.has(FAMILIES[weight]) && !GlobalFonts.registerFromPath(path.join(dir, file), FAMILIES[weight])) {
      throw new Error(`sample fonts: could not register ${file}`);
    }
  }
  registered = true;
}

/** A CSS font for the canvas at `size` px in one of the two weights. */
export function font(size: number, weight: Weight): string {
  register();
  return `${weight} ${size}px "${FAMILIES[weight]}"`;
}
