/**
 * Test inputs made on the fly: a synthetic 478-point face mesh laid out like MediaPipe's (every
 * labelled group where a face has it, the other points scattered over the face), a picture drawn
 * at those landmarks, and a real face cut from an image that ships inside @vladmandic/human's npm
 * package (nothing is committed, nothing is downloaded).
 */
import { createCanvas } from '@napi-rs/canvas';
import { MESH, rigFromMesh, type FaceRig } from '#functions/render/face/landmarks';
const { cos, floor, hypot, max, PI, round, sin } = Math;

export const SYNTH = { width: 600, height: 800, cx: 300, cy: 400, rx: 150, ry: 200 } as const;

type P3 = [number, number, number];

/** The synthetic mesh: 478 [x, y, z] points (image pixels), deterministic. */
export function syntheticMesh(): P3[] {
  const pts: (P3 | undefined)[] = new Array(MESH.count);
  const depth = (x: number, y: number) => {
    const r2 = ((x - SYNTH.cx) / SYNTH.rx) ** 2 + ((y - SYNTH.cy) / SYNTH.ry) ** 2;
    return round(-40 * max(0, 1 - r2));
  };
  const set = (i: number, x: number, y: number) => {
    if (!pts[i]) pts[i] = [x, y, depth(x, y)];
  };
  /** Points of a list spread from x0 to x1 along y = yc + amp·sin(πt); `ends` includes t = 0 and 1. */
  const arc = (idx: readonly number[], x0: number, x1: number, yc: number, amp: number, ends: boolean) => {
    const n = idx.length;
    idx.forEach((i, k) => {
      const t = ends ? k / (n - 1) : (k + 1) / (n + 1);
      set(i, x0 + (x1 - x0) * t, yc + amp * sin(PI * t));
    });
  };
  const eye = (e: typeof MESH.eyeA | typeof MESH.eyeB, mirror: boolean) => {
    const X = (x: number) => (mirror ? SYNTH.width - x : x);
    // Outer corner at x = 212, inner at 268 (mirrored for the other eye), centre line y = 340.
    set(e.outer, X(212), 340);
    set(e.inner, X(268), 340);
    arc(e.lower0, X(212), X(268), 340, 10, true);
    arc(e.upper0, X(212), X(268), 340, -10, false);
    arc(e.upper1, X(208), X(272), 337, -16, false);
    arc(e.upper2, X(204), X(276), 335, -24, false);
    arc(e.lower1, X(206), X(274), 342, 16, true);
    arc(e.lower2, X(202), X(278), 344, 24, true);
    arc(e.browUpper, X(200), X(282), 300, -8, true);
    arc(e.browLower, X(205), X(277), 308, -6, true);
    const [c, ...ring] = e.iris;
    set(c!, X(240), 340);
    ring.forEach((i, k) => set(i, X(240) + 6 * cos((k * PI) / 2), 340 + 6 * sin((k * PI) / 2)));
  };
  eye(MESH.eyeA, false);
  eye(MESH.eyeB, true);
  // Mouth: corners at x 252 / 348, the lips meeting on y = 470.
  set(MESH.mouthLeft, 252, 470);
  set(MESH.mouthRight, 348, 470);
  set(78, 258, 470);
  set(308, 342, 470);
  arc(MESH.lipsUpperOuter, 252, 348, 470, -14, true);
  arc(MESH.lipsLowerOuter, 252, 348, 470, 18, true);
  arc(MESH.lipsUpperInner, 258, 342, 469.5, -1, true);
  arc(MESH.lipsLowerInner, 258, 342, 470.5, 1, true);
  arc(MESH.lipsUpperSemiOuter, 254, 346, 470, -10, false);
  arc(MESH.lipsUpperSemiInner, 256, 344, 470, -5, false);
  arc(MESH.lipsLowerSemiInner, 256, 344, 471, 6, true);
  arc(MESH.lipsLowerSemiOuter, 254, 346, 471, 12, true);
  set(MESH.noseBridge, 300, 335);
  set(MESH.noseTip, 300, 420);
  set(MESH.noseBottom, 300, 432);
  // Silhouette: an ellipse from the top of the forehead, clockwise on screen.
  MESH.silhouette.forEach((i, k) => {
    const a = -PI / 2 + (k * 2 * PI) / MESH.silhouette.length;
    set(i, SYNTH.cx + SYNTH.rx * cos(a), SYNTH.cy + SYNTH.ry * sin(a));
  });
  // Everything else on a jittered grid inside the face, clear of the points above.
  const taken = pts.filter((p): p is P3 => !!p);
  const free: [number, number][] = [];
  for (let y = SYNTH.cy - SYNTH.ry + 8; y < SYNTH.cy + SYNTH.ry - 8; y += 15) {
    for (let x = SYNTH.cx - SYNTH.rx + 8; x < SYNTH.cx + SYNTH.rx - 8; x += 15) {
      const jx = x + ((y * 7) % 5) - 2, jy = y + ((x * 3) % 5) - 2;
      if (((jx - SYNTH.cx) / (SYNTH.rx - 10)) ** 2 + ((jy - SYNTH.cy) / (SYNTH.ry - 10)) ** 2 > 1) continue;
      if (taken.some(([px, py]) => hypot(px - jx, py - jy) < 9)) continue;
      free.push([jx, jy]);
    }
  }
  const missing = [...Array(MESH.count).keys()].filter((i) => !pts[i]);
  if (free.length < missing.length) throw new Error('synthetic mesh: not enough free spots');
  // Spread evenly over the free spots, so the whole face is covered.
  missing.forEach((i, k) => {
    const spot = free[floor((k * free.length) / missing.length)]!;
    set(i, spot[0], spot[1]);
  });
  return pts as P3[];
}

export function syntheticRig(): FaceRig {
  return rigFromMesh(syntheticMesh(), { width: SYNTH.width, height: SYNTH.height }, 1, 0.99);
}

/** A picture of a face drawn at the synthetic landmarks (PNG). */
export function syntheticFacePng(): Buffer {
  const c = createCanvas(SYNTH.width, SYNTH.height);
  const ctx = c.getContext('2d');
  const bg = ctx.createLinearGradient(0, 0, 0, SYNTH.height);
  bg.addColorStop(0, '#6d8fb3');
  bg.addColorStop(1, '#2e3f57');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, SYNTH.width, SYNTH.height);
  // Neck and shoulders, hair, face.
  ctx.fillStyle = '#c98f6b';
  ctx.fillRect(SYNTH.cx - 60, SYNTH.cy + 150, 120, 200);
  ctx.fillStyle = '#3b2a20';
  ctx.beginPath();
  ctx.ellipse(SYNTH.cx, SYNTH.cy - 40, SYNTH.rx + 25, SYNTH.ry, 0, PI, 2 * PI);
  ctx.fill();
  const skin = ctx.createRadialGradient(SYNTH.cx - 30, SYNTH.cy - 40, 20, SYNTH.cx, SYNTH.cy, SYNTH.ry);
  skin.addColorStop(0, '#f0c4a4');
  skin.addColorStop(1, '#c98f6b');
  ctx.fillStyle = skin;
  ctx.beginPath();
  ctx.ellipse(SYNTH.cx, SYNTH.cy, SYNTH.rx, SYNTH.ry, 0, 0, 2 * PI);
  ctx.fill();
  for (const x of [240, SYNTH.width - 240]) {
    ctx.fillStyle = '#ffffff';
    ctx.beginPath();
    ctx.ellipse(x, 340, 28, 10, 0, 0, 2 * PI);
    ctx.fill();
    ctx.fillStyle = '#4a6a3a';
    ctx.beginPath();
    ctx.arc(x, 340, 8, 0, 2 * PI);
    ctx.fill();
    ctx.strokeStyle = '#3b2a20';
    ctx.lineWidth = 7;
    ctx.beginPath();
    ctx.moveTo(x - 40, 304);
    ctx.quadraticCurveTo(x, 288, x + 40, 304);
    ctx.stroke();
  }
  ctx.strokeStyle = '#a8705a';
  ctx.lineWidth = 4;
  ctx.beginPath();
  ctx.moveTo(300, 350);
  ctx.lineTo(292, 425);
  ctx.lineTo(306, 432);
  ctx.stroke();
  ctx.fillStyle = '#b4474f';
  ctx.beginPath();
  ctx.moveTo(252, 470);
  ctx.quadraticCurveTo(300, 440, 348, 470);
  ctx.quadraticCurveTo(300, 500, 252, 470);
  ctx.fill();
  ctx.strokeStyle = '#6e2228';
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(256, 470);
  ctx.lineTo(344, 470);
  ctx.stroke();
  return c.toBuffer('image/png');
}

/** An image with no face at all: smooth gradients and shapes. */
export function noFacePng(): Buffer {
  const c = createCanvas(640, 480);
  const ctx = c.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, 640, 480);
  g.addColorStop(0, '#1d4e89');
  g.addColorStop(1, '#f2a541');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, 640, 480);
  ctx.fillStyle = 'rgba(255,255,255,0.6)';
  for (let i = 0; i < 12; i++) ctx.fillRect(40 + i * 48, 100 + (i % 3) * 90, 30, 30);
  return c.toBuffer('image/png');
}

export { realFacePng } from '#bench/reference-clip';
