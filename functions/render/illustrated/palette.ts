/**
 * The reaction scene's colours, all derived from the avatar's own background colour so that every
 * avatar gets a frame that matches it: a deeper, richer version of its hue behind, its pastel as the
 * disc it stands in, and per emotion a mood tint and an accent colour.
 */
import type { Emotion } from '../reaction/animation';
const { max, min } = Math;

interface Hsl {
  h: number;
  s: number;
  l: number;
}

function hexToHsl(hex: string): Hsl {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  const r = ((n >> 16) & 255) / 255;
  const g = ((n >> 8) & 255) / 255;
  const b = (n & 255) / 255;
  const hi = max(r, g, b);
  const lo = min(r, g, b);
  const l = (hi + lo) / 2;
  if (hi === lo) return { h: 0, s: 0, l };
  const d = hi - lo;
  const s = l > 0.5 ? d / (2 - hi - lo) : d / (hi + lo);
  let h: number;
  if (hi === r) h = (g - b) / d + (g < b ? 6 : 0);
  else if (hi === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return { h: h * 60, s, l };
}

function hsl(c: Hsl, alpha = 1): string {
  const h = ((c.h % 360) + 360) % 360;
  const pct = (v: number) => `${(max(0, min(1, v)) * 100).toFixed(1)}%`;
  return alpha >= 1 ? `hsl(${h.toFixed(1)}, ${pct(c.s)}, ${pct(c.l)})` : `hsla(${h.toFixed(1)}, ${pct(c.s)}, ${pct(c.l)}, ${alpha.toFixed(3)})`;
}

export interface ScenePalette {
  /** Frame background, top and bottom of its gradient. */
  top: string;
  bottom: string;
  /** The soft light behind the disc. */
  glow: string;
  /** The disc the avatar stands in (the avatar's own background colour), and its rim. */
  disc: string;
  rim: string;
  shadow: string;
}

export function scenePalette(backgroundHex: string): ScenePalette {
  const base = hexToHsl(backgroundHex);
  // Greys (and near-greys) keep a cool blue cast rather than going flat.
  const hue = base.s < 0.12 ? 215 : base.h;
  const sat = base.s < 0.12 ? 0.18 : min(0.62, max(0.38, base.s * 0.7));
  const dark = base.l < 0.45;
  return {
    top: hsl({ h: hue - 8, s: sat, l: dark ? 0.3 : 0.56 }),
    bottom: hsl({ h: hue + 14, s: sat * 0.9, l: dark ? 0.16 : 0.3 }),
    glow: hsl({ h: hue, s: sat * 0.7, l: dark ? 0.5 : 0.82 }, 0.55),
    disc: `#${backgroundHex}`,
    rim: hsl({ h: base.h, s: base.s * 0.6, l: min(0.98, base.l + 0.12) }, 0.9),
    shadow: hsl({ h: hue + 10, s: sat, l: 0.12 }, 0.45),
  };
}

/**
 * How an emotion colours the scene: a backdrop in its hue faded in (nearly all the way: half-way
 * mixes of two hues go grey), and the colour of its accents. The cheerful ones keep the avatar's own
 * colours and get rays instead. The quiet ones (crying, disgusted, skeptical) get faint rays too: their
 * heads barely move, and a backdrop whose light turns slowly is what kept their frames from freezing
 * (freezes of 0.1 s without them: crying 3 in 8 seeds, disgusted 2 and skeptical 3 in 5; with them
 * 0 in 8, 1 in 7 and 0 in 7).
 */
export interface Mood {
  tint: string | null;
  /** How much of the mood's backdrop shows at full intensity (0..1). */
  tintStrength: number;
  accent: string;
  rays: number;
}

export const MOODS: Record<Emotion, Mood> = {
  shocked: { tint: null, tintStrength: 0, accent: '#ffffff', rays: 0.16 },
  mind_blown: { tint: '#6d4cff', tintStrength: 0.9, accent: '#ffe45c', rays: 0.2 },
  laughing: { tint: null, tintStrength: 0, accent: '#fff3b0', rays: 0.14 },
  excited: { tint: null, tintStrength: 0, accent: '#fff3b0', rays: 0.15 },
  crying: { tint: '#3d5a99', tintStrength: 0.85, accent: '#9ed4ff', rays: 0.07 },
  disgusted: { tint: '#7da83a', tintStrength: 0.8, accent: '#d7f5a3', rays: 0.07 },
  skeptical: { tint: '#5b5f7a', tintStrength: 0.6, accent: '#ffffff', rays: 0.07 },
  in_love: { tint: '#ff5c9a', tintStrength: 0.8, accent: '#ff4d7d', rays: 0.1 },
  angry: { tint: '#e0322b', tintStrength: 0.9, accent: '#ff3b30', rays: 0.12 },
  happy: { tint: null, tintStrength: 0, accent: '#fff6c2', rays: 0.08 },
};
