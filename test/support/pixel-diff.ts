const { abs, max, min } = Math;

/** Where two RGBA pictures of the same size differ visibly: a test's way to find what a change drew. */
export interface ChangedPixels {
  /** Pixels whose colours differ by 30 or more (summed over R, G and B). */
  changed: number;
  /** The box around them (empty when none changed). */
  box: { x: number; y: number; width: number; height: number };
}

export function changedPixels(a: Uint8ClampedArray, b: Uint8ClampedArray, width: number, height: number): ChangedPixels {
  let minX = Infinity, maxX = -1, minY = Infinity, maxY = -1, changed = 0;
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const o = (py * width + px) * 4;
      if (abs(a[o]! - b[o]!) + abs(a[o + 1]! - b[o + 1]!) + abs(a[o + 2]! - b[o + 2]!) < 30) continue;
      changed++;
      minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py);
    }
  }
  return { changed, box: changed === 0 ? { x: 0, y: 0, width: 0, height: 0 } : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } };
}
