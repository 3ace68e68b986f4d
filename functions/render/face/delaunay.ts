const { abs, floor, max } = Math;

/**
 * Delaunay triangulation (Bowyer–Watson) of a few hundred points: the photo warp's mesh, built once
 * per prepared photo. Quadratic, which is a few milliseconds at this size; no dependency.
 */

/**
 * Triangulates points given as a flat [x0, y0, x1, y1, ...] array. Returns vertex indices, three per
 * triangle, every triangle counter-clockwise in a y-down frame (clockwise as seen on screen does not
 * matter to the callers). Exactly duplicated points are triangulated once (the duplicate is skipped).
 */
export function delaunay(coords: ArrayLike<number>): Uint32Array {
  const n = floor(coords.length / 2);
  if (n < 3) return new Uint32Array(0);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = coords[2 * i]!, y = coords[2 * i + 1]!;
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  const span = max(maxX - minX, maxY - minY, 1);
  const midX = (minX + maxX) / 2, midY = (minY + maxY) / 2;
  // Vertex storage: the points, then the super-triangle's three corners.
  const xs = new Float64Array(n + 3);
  const ys = new Float64Array(n + 3);
  for (let i = 0; i < n; i++) {
    xs[i] = coords[2 * i]!;
    ys[i] = coords[2 * i + 1]!;
  }
  xs[n] = midX - 20 * span; ys[n] = midY - span;
  xs[n + 1] = midX; ys[n + 1] = midY + 20 * span;
  xs[n + 2] = midX + 20 * span; ys[n + 2] = midY - span;

  // Triangles as parallel arrays with their circumcircles; `alive` marks live entries.
  let a: number[] = [n], b: number[] = [n + 1], c: number[] = [n + 2];
  let cx: number[] = [], cy: number[] = [], r2: number[] = [];
  const circum = (i: number, j: number, k: number): [number, number, number] => {
    const ax = xs[i]!, ay = ys[i]!, bx = xs[j]!, by = ys[j]!, qx = xs[k]!, qy = ys[k]!;
    const d = 2 * (ax * (by - qy) + bx * (qy - ay) + qx * (ay - by));
    if (abs(d) < 1e-12) return [midX, midY, Infinity];
    const a2 = ax * ax + ay * ay, b2 = bx * bx + by * by, c2 = qx * qx + qy * qy;
    const ux = (a2 * (by - qy) + b2 * (qy - ay) + c2 * (ay - by)) / d;
    const uy = (a2 * (qx - bx) + b2 * (ax - qx) + c2 * (bx - ax)) / d;
    return [ux, uy, (ax - ux) * (ax - ux) + (ay - uy) * (ay - uy)];
  };
  {
    const [x0, y0, rr] = circum(n, n + 1, n + 2);
    cx.push(x0); cy.push(y0); r2.push(rr);
  }

  const seen = new Set<string>();
  for (let p = 0; p < n; p++) {
    const px = xs[p]!, py = ys[p]!;
    const key = `${px},${py}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // Triangles whose circumcircle holds the point are removed; their outer edges form a hole.
    const edges = new Map<string, [number, number]>();
    const keepA: number[] = [], keepB: number[] = [], keepC: number[] = [];
    const keepX: number[] = [], keepY: number[] = [], keepR: number[] = [];
    for (let t = 0; t < a.length; t++) {
      const dx = px - cx[t]!, dy = py - cy[t]!;
      if (dx * dx + dy * dy < r2[t]! * (1 + 1e-12)) {
        for (const [u, v] of [[a[t]!, b[t]!], [b[t]!, c[t]!], [c[t]!, a[t]!]] as const) {
          const k = u < v ? `${u}:${v}` : `${v}:${u}`;
          if (edges.has(k)) edges.delete(k);
          else edges.set(k, [u, v]);
        }
      } else {
        keepA.push(a[t]!); keepB.push(b[t]!); keepC.push(c[t]!);
        keepX.push(cx[t]!); keepY.push(cy[t]!); keepR.push(r2[t]!);
      }
    }
    for (const [u, v] of edges.values()) {
      const [x0, y0, rr] = circum(u, v, p);
      if (!Number.isFinite(rr)) continue; // collinear with its edge: no triangle
      keepA.push(u); keepB.push(v); keepC.push(p);
      keepX.push(x0); keepY.push(y0); keepR.push(rr);
    }
    a = keepA; b = keepB; c = keepC; cx = keepX; cy = keepY; r2 = keepR;
  }

  const out: number[] = [];
  for (let t = 0; t < a.length; t++) {
    const i = a[t]!, j = b[t]!, k = c[t]!;
    if (i >= n || j >= n || k >= n) continue;
    const cross = (xs[j]! - xs[i]!) * (ys[k]! - ys[i]!) - (ys[j]! - ys[i]!) * (xs[k]! - xs[i]!);
    if (abs(cross) < 1e-9) continue;
    if (cross > 0) out.push(i, j, k);
    else out.push(i, k, j);
  }
  return Uint32Array.from(out);
}
