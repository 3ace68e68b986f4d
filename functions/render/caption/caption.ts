/**
 * The hook caption (docs/architecture.md, Media; docs/decisions.md, Captions): a transparent
 * full-frame PNG that compose.ts lays over the reaction segment (and, for hook_duration=full, over the
 * demo). TikTok-like: Montserrat ExtraBold in one of five styles, centred lines wrapped to a safe
 * area, placed clear of the face, colour emoji (Twemoji, never stroked: a stroke around a
 * bitmap glyph would draw a black square).
 *
 * Fonts come from the @fontsource packages in node_modules, located by module resolution, registered
 * once per process on first use; nothing is fetched.
 */
import { GlobalFonts, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { CANONICAL } from '../encoding/canonical-encoding';
import { CAPTION_FONTS } from './caption-fonts';
const { abs, ceil, floor, max, min, round } = Math;

export type CaptionPosition = 'top' | 'middle' | 'bottom';
export type CaptionSize = 'small' | 'medium' | 'large';
export type CaptionStyle = 'outline' | 'box' | 'highlight' | 'glow' | 'bold_caps';

export interface CaptionSpec {
  text: string;
  position: CaptionPosition;
  size: CaptionSize;
  /** Absent: outline, the look captions had before styles existed. */
  style?: CaptionStyle;
  /**
   * The face's eyes-to-mouth box on the 1080x1920 frame over the whole clip (the union of every
   * frame's), which the caption's ink keeps clear of, with the forehead above it; null or absent when
   * the face is not known.
   */
  avoid?: CaptionBox | null;
}

export interface CaptionBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CaptionImage {
  /** 1080x1920 RGBA PNG, transparent outside the caption. */
  png: Buffer;
  /** Bounding box of the drawn (non-transparent) pixels, outline included; all zero for blank text. */
  box: CaptionBox;
}

/** The API caps hook_text at 100 UTF-16 units; counting code points here accepts all of those. */
const CAPTION_MAX_CHARS = 100;

/**
 * Where captions may be drawn on the 1080x1920 frame: x 120-930, y 160-1440, inside every platform's
 * own UI. Short-video apps cover the frame edges: ~120 px on the left keeps text off the rounded
 * corners; the right ~150 px hold the action-button column (like, comment, share); the top ~160 px the
 * status bar and tabs; the bottom ~480 px the account name, description, sound ticker and navigation
 * (TikTok's is the tallest). The top band starts lower, at 250 px, under the "Following | For You" tabs.
 */
export const CAPTION_SAFE_AREA = { left: 120, right: 930, top: 160, bottom: 1440 } as const;

/** Where the top band begins: under the tabs, which a caption in the top third would otherwise meet. */
const TOP_BAND_START = 250;

/**
 * Each position is a third of the frame, cut to the safe area. A caption is centred in its band;
 * one taller than its band grows away from the frame edge (top: downwards, bottom: upwards) but
 * never leaves the safe area.
 */
const CAPTION_BANDS: Record<CaptionPosition, { top: number; bottom: number }> = {
  top: { top: TOP_BAND_START, bottom: CANONICAL.height / 3 },
  middle: { top: CANONICAL.height / 3, bottom: (CANONICAL.height * 2) / 3 },
  bottom: { top: (CANONICAL.height * 2) / 3, bottom: CAPTION_SAFE_AREA.bottom },
};

/** Font size in px on the 1080-wide frame: medium fits ~15-20 characters per line. */
const CAPTION_FONT_PX: Record<CaptionSize, number> = { small: 54, medium: 68, large: 86 };

const LINE_HEIGHT = 1.22;
/** Outline width relative to the font size (the stroke is centred on the glyph edge: half shows). */
const OUTLINE = 0.16;
/** The glow's blur radius relative to the font size. */
const GLOW_BLUR = 0.3;
const BOX_FILL = 'rgba(255, 255, 255, 0.96)';
const BOX_TEXT = '#111111';
const HIGHLIGHT_BAND = '#ffd23f';
const GLOW_COLOUR = '#29f0ff';
/** The dark halo right around the glow's letters, so they read on white as on black. */
const GLOW_SHADE = 'rgba(6, 10, 30, 0.9)';
const GLOW_SHADE_BLUR = 0.12;
/** Space kept between the caption's ink and the face's eyes-to-mouth box. */
export const FACE_GAP_PX = 24;
/**
 * The forehead, as a share of the eyes-to-mouth box's height above it: a face is read (by a viewer
 * and by a face detector alike) from its brow up, and a caption across the forehead cut the face the
 * detector finds on a drawn avatar to the first frame or none (issue 27). 0.4 is where human's face
 * mesh ends above the drawn avatar's eyes-to-mouth box over a whole reaction.
 */
export const FOREHEAD_SHARE = 0.4;

/** The part of the frame a caption keeps clear of: the eyes-to-mouth box and the forehead above it. */
function faceWithForehead(avoid: CaptionBox | null): CaptionBox | null {
  if (!avoid) return null;
  const forehead = avoid.height * FOREHEAD_SHARE;
  return { x: avoid.x, y: avoid.y - forehead, width: avoid.width, height: avoid.height + forehead };
}

/**
 * How each style draws, relative to the font size. `padX`/`padY` is how far its ink reaches beyond
 * the lines' advance boxes (an outline's outer half, a box's padding, a glow's blur), which layout
 * and placement reserve so every drawn pixel, not only the glyphs, stays in the safe area.
 */
interface StyleLook {
  weight: 800 | 900;
  upper: boolean;
  /** Stroke width of the dark outline; 0: none. */
  outline: number;
  padX: number;
  padY: number;
}

const STYLE_LOOKS: Record<CaptionStyle, StyleLook> = {
  outline: { weight: 800, upper: false, outline: OUTLINE, padX: OUTLINE / 2, padY: OUTLINE / 2 },
  // TikTok's own text look: dark letters on a rounded, nearly opaque white box per line.
  box: { weight: 800, upper: false, outline: 0, padX: 0.32, padY: 0.06 },
  // Key words on a colour band, the rest outlined; the band's padding is the widest ink.
  highlight: { weight: 800, upper: false, outline: OUTLINE, padX: 0.18, padY: 0.06 },
  // Skia's blur reaches 1.5 x shadowBlur (3 sigma); a little more is kept for the anti-aliased edge.
  glow: { weight: 800, upper: false, outline: 0.1, padX: GLOW_BLUR * 1.5 + 0.05, padY: GLOW_BLUR * 1.5 + 0.05 },
  bold_caps: { weight: 900, upper: true, outline: 0.18, padX: 0.09, padY: 0.09 },
};

/** Montserrat's cap height is 0.70 em: a baseline this far below a line's centre centres capitals. */
const BASELINE_BELOW_CENTRE = 0.35;
/** Advance widths do not bound the ink exactly (side bearings, emoji overhang): keep a little slack. */
const INK_SLACK_PX = 4;

interface FontLists {
  /** ExtraBold subsets, then emoji, as a CSS family list. */
  text: string;
  /** Black (900) subsets, then emoji. */
  heavy: string;
  emoji: string;
}

let fonts: FontLists | undefined;

/** Every file of a font package's folder matching `pattern`, by module resolution (never fetched). */
function fontFiles({ packageName, folder, files: pattern }: { packageName: string; folder: string; files: RegExp }): string[] {
  const dir = path.join(path.dirname(require.resolve(`${packageName}/package.json`)), folder);
  const files = readdirSync(dir).filter((f) => pattern.test(f)).sort();
  if (files.length === 0) throw new Error(`caption fonts: no files matching ${pattern} in ${dir}`);
  return files.map((f) => path.join(dir, f));
}

/**
 * Each subset file is registered under its own family name and all of them go into the font list:
 * Skia falls back family by family, while files sharing one family name would be matched by style
 * alone and only one subset would ever be used (no Ł, no Cyrillic).
 */
export function registerFonts(): FontLists {
  if (fonts) return fonts;
  const register = (files: string[], prefix: string) =>
    files.map((file) => {
      const family = `${prefix} ${path.basename(file).replace(/\.woff2?$/, '')}`;
      if (!GlobalFonts.has(family) && !GlobalFonts.registerFromPath(file, family)) {
        throw new Error(`caption fonts: could not register ${file}`);
      }
      return `"${family}"`;
    });
  const textFiles = fontFiles(CAPTION_FONTS.text);
  const text = register(textFiles.filter((f) => f.includes('-800-')), 'Caption Text');
  const heavy = register(textFiles.filter((f) => f.includes('-900-')), 'Caption Heavy');
  const emoji = register(fontFiles(CAPTION_FONTS.emoji), 'Caption Emoji');
  // Emoji last in the text lists too: a symbol Montserrat lacks still draws rather than as a box.
  fonts = { text: [...text, ...emoji].join(', '), heavy: [...heavy, ...emoji].join(', '), emoji: emoji.join(', ') };
  return fonts;
}

interface Run {
  text: string;
  emoji: boolean;
}

/** A word (no spaces inside) cut into text and emoji runs. */
interface Word {
  runs: Run[];
  width: number;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * Emoji presentation by default, or asked for (VS16, keycap, flags). Text-default pictographs below
 * U+1F000 without VS16 (©, ™, ☺) stay text: Montserrat or the fallback draws them outlined.
 */
function isEmoji(grapheme: string): boolean {
  if (/\p{Emoji_Presentation}|\uFE0F|\u20E3|\p{Regional_Indicator}/u.test(grapheme)) return true;
  const first = grapheme.codePointAt(0) ?? 0;
  return first >= 0x1f000 && /\p{Extended_Pictographic}/u.test(grapheme);
}

function graphemes(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

function toRuns(word: string): Run[] {
  const runs: Run[] = [];
  for (const g of graphemes(word)) {
    const emoji = isEmoji(g);
    const last = runs[runs.length - 1];
    if (last && last.emoji === emoji) last.text += g;
    else runs.push({ text: g, emoji });
  }
  return runs;
}

interface Layout {
  fontPx: number;
  weight: 800 | 900;
  lines: Word[][];
  spaceWidth: number;
}

function setFont(ctx: SKRSContext2D, fontPx: number, emoji: boolean, weight: 800 | 900 = 800): void {
  const f = registerFonts();
  ctx.font = emoji ? `${fontPx}px ${f.emoji}` : `${weight} ${fontPx}px ${weight === 900 ? f.heavy : f.text}`;
}

/** The font a layout measures and draws with. */
interface Face {
  fontPx: number;
  weight: 800 | 900;
}

function measureRuns(ctx: SKRSContext2D, face: Face, runs: Run[]): number {
  let width = 0;
  for (const run of runs) {
    setFont(ctx, face.fontPx, run.emoji, face.weight);
    width += ctx.measureText(run.text).width;
  }
  return width;
}

/** Cuts a word wider than a line into pieces that fit, between graphemes. */
function breakWord(ctx: SKRSContext2D, face: Face, word: string, maxWidth: number): Word[] {
  const pieces: Word[] = [];
  let current = '';
  for (const g of graphemes(word)) {
    const candidate = current + g;
    if (current && measureRuns(ctx, face, toRuns(candidate)) > maxWidth) {
      pieces.push({ runs: toRuns(current), width: measureRuns(ctx, face, toRuns(current)) });
      current = g;
    } else current = candidate;
  }
  if (current) pieces.push({ runs: toRuns(current), width: measureRuns(ctx, face, toRuns(current)) });
  return pieces;
}

/** A word made only of emoji (and the joiners between them): it rides with the word before it. */
const isEmojiOnly = (word: string) => graphemes(word).every(isEmoji);

/**
 * The words of a paragraph as they may break: an emoji-only word is glued to the word before it, so
 * no line is emoji alone ("it works 😱" never leaves 😱 by itself on the last line).
 */
function breakableWords(paragraph: string): string[] {
  const words: string[] = [];
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (words.length > 0 && isEmojiOnly(word)) words[words.length - 1] += ` ${word}`;
    else words.push(word);
  }
  return words;
}

/** Greedy wrap at `maxWidth`; explicit line breaks in the text are kept. */
function greedy(ctx: SKRSContext2D, text: string, face: Face, maxWidth: number, spaceWidth: number): Word[][] {
  const lines: Word[][] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    const words = breakableWords(paragraph);
    if (words.length === 0) continue;
    let line: Word[] = [];
    let lineWidth = 0;
    for (const raw of words) {
      const runs = toRuns(raw);
      const width = measureRuns(ctx, face, runs);
      const pieces = width > maxWidth ? breakWord(ctx, face, raw, maxWidth) : [{ runs, width }];
      for (const piece of pieces) {
        const widthWith = line.length ? lineWidth + spaceWidth + piece.width : piece.width;
        if (line.length && widthWith > maxWidth) {
          lines.push(line);
          line = [piece];
          lineWidth = piece.width;
        } else {
          line.push(piece);
          lineWidth = widthWith;
        }
      }
    }
    if (line.length) lines.push(line);
  }
  return lines;
}

/**
 * Balanced lines: as few as the greedy wrap needs, but each as even as it can be (the narrowest
 * width that still fits in that many lines), so a caption never ends on a stray short word.
 */
function layout(ctx: SKRSContext2D, text: string, face: Face, maxWidth: number): Layout {
  setFont(ctx, face.fontPx, false, face.weight);
  const spaceWidth = ctx.measureText(' ').width;
  const lines = greedy(ctx, text, face, maxWidth, spaceWidth);
  let best = lines;
  let low = maxWidth / 3;
  let high = maxWidth;
  for (let step = 0; step < 12 && high - low > 4; step++) {
    const mid = (low + high) / 2;
    const tried = greedy(ctx, text, face, mid, spaceWidth);
    // A word cut between graphemes to fit is not a balanced line: narrower must not cut more.
    const cuts = (ls: Word[][]) => ls.reduce((n, l) => n + l.length, 0);
    if (tried.length <= lines.length && cuts(tried) === cuts(lines)) {
      best = tried;
      high = mid;
    } else low = mid;
  }
  return { ...face, lines: best, spaceWidth };
}

const lineWidthOf = (line: Word[], spaceWidth: number) =>
  line.reduce((sum, w) => sum + w.width, 0) + spaceWidth * max(0, line.length - 1);

/** The lowest top a block may have: under the tabs in the top third, else the safe area's top. */
const minTop = (position: CaptionPosition, blockHeight: number) =>
  position === 'top' ? min(TOP_BAND_START, CAPTION_SAFE_AREA.bottom - blockHeight) : CAPTION_SAFE_AREA.top;

/** The block's top edge: centred in its band, grown away from the frame edge when taller than it. */
function blockTop(position: CaptionPosition, blockHeight: number): number {
  const band = CAPTION_BANDS[position];
  let top: number;
  if (blockHeight <= band.bottom - band.top) top = (band.top + band.bottom - blockHeight) / 2;
  else if (position === 'top') top = band.top;
  else if (position === 'bottom') top = band.bottom - blockHeight;
  else top = (band.top + band.bottom - blockHeight) / 2;
  return min(max(top, minTop(position, blockHeight)), CAPTION_SAFE_AREA.bottom - blockHeight);
}

const intersects = (a: CaptionBox, b: CaptionBox) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Where a block of this size may go, clear of the face: the top nearest `preferred` within
 * [low, high] whose block keeps FACE_GAP_PX from `avoid`, or null when none does. Only the two
 * edges of the face's reach are candidates besides `preferred`: anything between them meets it.
 */
function clearTop(preferred: number, low: number, high: number, block: { x: number; width: number; height: number }, avoid: CaptionBox | null): number | null {
  if (high < low) return null;
  const clamp = (t: number) => min(max(t, low), high);
  if (!avoid) return clamp(preferred);
  const reach = { x: avoid.x - FACE_GAP_PX, y: avoid.y - FACE_GAP_PX, width: avoid.width + 2 * FACE_GAP_PX, height: avoid.height + 2 * FACE_GAP_PX };
  const free = (t: number) => !intersects({ x: block.x, y: t, width: block.width, height: block.height }, reach);
  const candidates = [clamp(preferred), clamp(reach.y - block.height), clamp(reach.y + reach.height)].filter(free);
  if (candidates.length === 0) return null;
  return candidates.reduce((best, t) => (abs(t - preferred) < abs(best - preferred) ? t : best));
}

/** A caption as it will be drawn: its lines and font, and where its block (ink reach included) lies. */
interface Plan {
  layout: Layout;
  look: StyleLook;
  /** The block's top edge and height, padding included; lines start padY below it. */
  top: number;
  height: number;
}

/**
 * Font sizes to try, largest first: the asked size, then each smaller named size (a "size step"),
 * then 10 % smaller each time, for text too tall for the safe area even at small.
 */
function fontSteps(size: CaptionSize): number[] {
  const named = [CAPTION_FONT_PX.large, CAPTION_FONT_PX.medium, CAPTION_FONT_PX.small];
  const start = CAPTION_FONT_PX[size] ?? CAPTION_FONT_PX.medium;
  const steps = named.filter((px) => px <= start);
  for (let px = floor(CAPTION_FONT_PX.small * 0.9); px >= 24; px = floor(px * 0.9)) steps.push(px);
  return steps;
}

/**
 * The lines, size and place a caption is drawn at. Never outgrows the safe area (unusually tall text
 * is drawn smaller rather than cut). Clear of the face: first moved within its band, then a size step
 * smaller and moved again; a caption that fits nowhere in its band even at the smallest size goes to
 * the free part of the safe area nearest its band.
 */
function planCaption(ctx: SKRSContext2D, text: string, size: CaptionSize, style: CaptionStyle, position: CaptionPosition, eyesToMouth: CaptionBox | null): Plan {
  const safe = CAPTION_SAFE_AREA;
  const avoid = faceWithForehead(eyesToMouth);
  const look = STYLE_LOOKS[style] ?? STYLE_LOOKS.outline;
  const shown = look.upper ? text.toUpperCase() : text;
  const fitting: Plan[] = [];
  for (const fontPx of fontSteps(size)) {
    const padX = ceil(look.padX * fontPx) + INK_SLACK_PX;
    const plan = layout(ctx, shown, { fontPx, weight: look.weight }, safe.right - safe.left - 2 * padX);
    const height = plan.lines.length * fontPx * LINE_HEIGHT + 2 * ceil(look.padY * fontPx);
    if (height > safe.bottom - safe.top && fontPx > 24) continue;
    const width = max(...plan.lines.map((l) => lineWidthOf(l, plan.spaceWidth))) + 2 * padX;
    const block = { x: (safe.left + safe.right - width) / 2, width, height };
    const preferred = blockTop(position, height);
    // Without a face to clear, where it has always gone (a tall caption grows out of its band).
    if (!avoid) return { layout: plan, look, top: preferred, height };
    fitting.push({ layout: plan, look, top: preferred, height });
    // Within its band: the block's middle stays inside the band.
    const band = CAPTION_BANDS[position];
    const low = max(minTop(position, height), band.top - height / 2);
    const high = min(safe.bottom - height, band.bottom - height / 2);
    const top = clearTop(preferred, low, high, block, avoid);
    if (top !== null) return { layout: plan, look, top, height };
  }
  for (const plan of fitting) {
    const width = max(...plan.layout.lines.map((l) => lineWidthOf(l, plan.layout.spaceWidth))) + 2 * (ceil(look.padX * plan.layout.fontPx) + INK_SLACK_PX);
    const top = clearTop(plan.top, safe.top, safe.bottom - plan.height, { x: (safe.left + safe.right - width) / 2, width, height: plan.height }, avoid);
    if (top !== null) return { ...plan, top };
  }
  // A face covering the whole safe area leaves no clear place: the smallest caption in its band.
  return fitting[fitting.length - 1]!;
}

/** Alpha bounding box of a region of the canvas, in frame coordinates. */
function inkBox(ctx: SKRSContext2D, region: CaptionBox): CaptionBox {
  const { data } = ctx.getImageData(region.x, region.y, region.width, region.height);
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < region.height; y++) {
    const row = y * region.width * 4;
    for (let x = 0; x < region.width; x++) {
      if (data[row + x * 4 + 3] === 0) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < 0) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: region.x + minX, y: region.y + minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

/** The caption's lines as they will be drawn (their text), for checks and previews that need the words, not the pixels. */
export function captionLines(spec: Pick<CaptionSpec, 'text' | 'size' | 'style'> & Partial<Pick<CaptionSpec, 'position' | 'avoid'>>): string[] {
  const ctx = createCanvas(CANONICAL.width, 8).getContext('2d');
  const plan = planCaption(ctx, spec.text.trim(), spec.size, spec.style ?? 'outline', spec.position ?? 'top', spec.avoid ?? null);
  return plan.layout.lines.map((line) => line.map((word) => word.runs.map((run) => run.text).join('')).join(' '));
}

const letters = (word: Word) => word.runs.filter((r) => !r.emoji).map((r) => r.text).join('').replace(/[^\p{L}\p{N}]/gu, '').length;

/**
 * The highlight style's key words: the longest quarter of the words (at least one, ties to the
 * earlier), as the words that carry a hook are rarely its short ones.
 */
function keyWords(lines: Word[][]): Set<Word> {
  const words = lines.flat().filter((w) => letters(w) > 0);
  const ranked = [...words].sort((a, b) => letters(b) - letters(a));
  return new Set(ranked.slice(0, max(1, round(words.length / 4))));
}

/** Each run of a line with where it starts, in drawing order. */
function placedRuns(ctx: SKRSContext2D, plan: Layout, line: Word[], startX: number): { word: Word; run: Run; x: number; advance: number }[] {
  const placed: { word: Word; run: Run; x: number; advance: number }[] = [];
  let x = startX;
  for (const word of line) {
    for (const run of word.runs) {
      setFont(ctx, plan.fontPx, run.emoji, plan.weight);
      const advance = ctx.measureText(run.text).width;
      placed.push({ word, run, x, advance });
      x += advance;
    }
    x += plan.spaceWidth;
  }
  return placed;
}

function drawLines(ctx: SKRSContext2D, plan: Plan, style: CaptionStyle): void {
  const safe = CAPTION_SAFE_AREA;
  const { layout: lay, look } = plan;
  const fontPx = lay.fontPx;
  const lineHeight = fontPx * LINE_HEIGHT;
  const padY = ceil(look.padY * fontPx);
  const centreX = (safe.left + safe.right) / 2;
  const keys = style === 'highlight' ? keyWords(lay.lines) : new Set<Word>();
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  const lines = lay.lines.map((line, i) => {
    const lineTop = plan.top + padY + i * lineHeight;
    const width = lineWidthOf(line, lay.spaceWidth);
    const startX = centreX - width / 2;
    return { lineTop, startX, width, baseline: round(lineTop + lineHeight / 2 + fontPx * BASELINE_BELOW_CENTRE), runs: placedRuns(ctx, lay, line, startX) };
  });
  const text = (run: Run, x: number, baseline: number, pass: 'stroke' | 'fill') => {
    setFont(ctx, fontPx, run.emoji, lay.weight);
    if (pass === 'fill') ctx.fillText(run.text, x, baseline);
    else if (!run.emoji) ctx.strokeText(run.text, x, baseline);
  };

  if (style === 'box') {
    // Every line's box first, so a box never covers the line above's descenders.
    ctx.fillStyle = BOX_FILL;
    const padX = look.padX * fontPx;
    for (const l of lines) {
      ctx.beginPath();
      ctx.roundRect(l.startX - padX, l.lineTop - padY, l.width + 2 * padX, lineHeight + 2 * padY, fontPx * 0.24);
      ctx.fill();
    }
    ctx.fillStyle = BOX_TEXT;
    for (const l of lines) for (const r of l.runs) text(r.run, r.x, l.baseline, 'fill');
    return;
  }
  if (style === 'highlight') {
    ctx.fillStyle = HIGHLIGHT_BAND;
    const padX = look.padX * fontPx;
    for (const l of lines) {
      for (const word of new Set(l.runs.filter((r) => keys.has(r.word)).map((r) => r.word))) {
        const runs = l.runs.filter((r) => r.word === word);
        const x0 = runs[0]!.x;
        const x1 = runs[runs.length - 1]!.x + runs[runs.length - 1]!.advance;
        ctx.beginPath();
        ctx.roundRect(x0 - padX, l.lineTop - padY, x1 - x0 + 2 * padX, lineHeight + 2 * padY, fontPx * 0.16);
        ctx.fill();
      }
    }
  }
  if (style === 'glow') {
    // The neon halo first, then a tight dark one over its inner edge: white letters on a pale frame
    // met only the halo's own pale cyan (a contrast of 2.5 on white) and faded into it.
    for (const [colour, blur] of [[GLOW_COLOUR, GLOW_BLUR], [GLOW_SHADE, GLOW_SHADE_BLUR]] as const) {
      ctx.save();
      ctx.shadowColor = colour;
      ctx.shadowBlur = fontPx * blur;
      ctx.fillStyle = '#ffffff';
      for (const l of lines) for (const r of l.runs) text(r.run, r.x, l.baseline, 'fill');
      ctx.restore();
    }
  }
  // Outlines of every line first, then the fills, so no outline bites into a neighbour's fill.
  ctx.lineWidth = round(fontPx * look.outline);
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.92)';
  for (const l of lines) for (const r of l.runs) if (!keys.has(r.word)) text(r.run, r.x, l.baseline, 'stroke');
  for (const l of lines) {
    for (const r of l.runs) {
      ctx.fillStyle = keys.has(r.word) ? BOX_TEXT : '#ffffff';
      text(r.run, r.x, l.baseline, 'fill');
    }
  }
}

/**
 * Draws `text` as a caption on a transparent 1080x1920 frame. Blank text gives a fully transparent
 * frame and an empty box. Text longer than CAPTION_MAX_CHARS is a programming error (the API
 * refuses it), so it throws rather than silently dropping words.
 */
export async function renderCaptionPng(spec: CaptionSpec): Promise<CaptionImage> {
  const chars = [...spec.text].length;
  if (chars > CAPTION_MAX_CHARS) throw new RangeError(`caption text has ${chars} characters, at most ${CAPTION_MAX_CHARS} are drawn`);
  const { width: W, height: H } = CANONICAL;
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  const text = spec.text.trim();
  if (!text) return { png: await canvas.encode('png'), box: { x: 0, y: 0, width: 0, height: 0 } };

  const style = spec.style ?? 'outline';
  const plan = planCaption(ctx, text, spec.size, style, spec.position, spec.avoid ?? null);
  drawLines(ctx, plan, style);

  // The box is measured from the pixels, so it is exactly what was drawn (outline, glow and emoji included).
  const margin = plan.layout.fontPx;
  const regionTop = max(0, floor(plan.top - margin));
  const region = { x: 0, y: regionTop, width: W, height: min(H, ceil(plan.top + plan.height + margin)) - regionTop };
  const box = inkBox(ctx, region);
  return { png: await canvas.encode('png'), box };
}
