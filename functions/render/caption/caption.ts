/**
 * The hook caption (docs/architecture.md, Media): a transparent full-frame PNG that compose.ts lays over the reaction
 * segment. TikTok-like: Montserrat ExtraBold, white with a thick dark outline, centred lines wrapped
 * to a safe area, colour emoji (Noto Color Emoji, drawn without outline: a stroke around a bitmap
 * glyph would draw a black square).
 *
 * Fonts come from the @fontsource packages in node_modules, located by module resolution, registered
 * once per process on first use; nothing is fetched.
 */
import { GlobalFonts, createCanvas, type SKRSContext2D } from '@napi-rs/canvas';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { CANONICAL } from '../encoding/canonical-encoding';
import { CAPTION_FONTS } from './caption-fonts';

export type CaptionPosition = 'top' | 'middle' | 'bottom';
export type CaptionSize = 'small' | 'medium' | 'large';

export interface CaptionSpec {
  text: string;
  position: CaptionPosition;
  size: CaptionSize;
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
/** Montserrat's cap height is 0.70 em: a baseline this far below a line's centre centres capitals. */
const BASELINE_BELOW_CENTRE = 0.35;
/** Advance widths do not bound the ink exactly (side bearings, emoji overhang): keep a little slack. */
const INK_SLACK_PX = 4;

let fonts: { text: string; emoji: string } | undefined;

/** Every file of a @fontsource package matching `pattern`, by module resolution (never fetched). */
function fontFiles(packageName: string, pattern: RegExp): string[] {
  const dir = path.join(path.dirname(require.resolve(`${packageName}/package.json`)), 'files');
  const files = readdirSync(dir).filter((f) => pattern.test(f)).sort();
  if (files.length === 0) throw new Error(`caption fonts: no files matching ${pattern} in ${dir}`);
  return files.map((f) => path.join(dir, f));
}

/**
 * Each subset file is registered under its own family name and all of them go into the font list:
 * Skia falls back family by family, while files sharing one family name would be matched by style
 * alone and only one subset would ever be used (no Ł, no Cyrillic).
 */
function registerFonts(): { text: string; emoji: string } {
  if (fonts) return fonts;
  const register = (files: string[], prefix: string) =>
    files.map((file) => {
      const family = `${prefix} ${path.basename(file).replace(/\.woff2?$/, '')}`;
      if (!GlobalFonts.has(family) && !GlobalFonts.registerFromPath(file, family)) {
        throw new Error(`caption fonts: could not register ${file}`);
      }
      return `"${family}"`;
    });
  const text = register(fontFiles(CAPTION_FONTS.text.packageName, CAPTION_FONTS.text.files), 'Caption Text');
  const emoji = register(fontFiles(CAPTION_FONTS.emoji.packageName, CAPTION_FONTS.emoji.files), 'Caption Emoji');
  // Emoji last in the text list too: a symbol Montserrat lacks still draws rather than as a box.
  fonts = { text: [...text, ...emoji].join(', '), emoji: emoji.join(', ') };
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
  lines: Word[][];
  spaceWidth: number;
}

function setFont(ctx: SKRSContext2D, fontPx: number, emoji: boolean): void {
  const f = registerFonts();
  ctx.font = emoji ? `${fontPx}px ${f.emoji}` : `800 ${fontPx}px ${f.text}`;
}

function measureRuns(ctx: SKRSContext2D, fontPx: number, runs: Run[]): number {
  let width = 0;
  for (const run of runs) {
    setFont(ctx, fontPx, run.emoji);
    width += ctx.measureText(run.text).width;
  }
  return width;
}

/** Cuts a word wider than a line into pieces that fit, between graphemes. */
function breakWord(ctx: SKRSContext2D, fontPx: number, word: string, maxWidth: number): Word[] {
  const pieces: Word[] = [];
  let current = '';
  for (const g of graphemes(word)) {
    const candidate = current + g;
    if (current && measureRuns(ctx, fontPx, toRuns(candidate)) > maxWidth) {
      pieces.push({ runs: toRuns(current), width: measureRuns(ctx, fontPx, toRuns(current)) });
      current = g;
    } else current = candidate;
  }
  if (current) pieces.push({ runs: toRuns(current), width: measureRuns(ctx, fontPx, toRuns(current)) });
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
function greedy(ctx: SKRSContext2D, text: string, fontPx: number, maxWidth: number, spaceWidth: number): Word[][] {
  const lines: Word[][] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    const words = breakableWords(paragraph);
    if (words.length === 0) continue;
    let line: Word[] = [];
    let lineWidth = 0;
    for (const raw of words) {
      const runs = toRuns(raw);
      const width = measureRuns(ctx, fontPx, runs);
      const pieces = width > maxWidth ? breakWord(ctx, fontPx, raw, maxWidth) : [{ runs, width }];
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
function layout(ctx: SKRSContext2D, text: string, fontPx: number, maxWidth: number): Layout {
  setFont(ctx, fontPx, false);
  const spaceWidth = ctx.measureText(' ').width;
  const lines = greedy(ctx, text, fontPx, maxWidth, spaceWidth);
  let best = lines;
  let low = maxWidth / 3;
  let high = maxWidth;
  for (let step = 0; step < 12 && high - low > 4; step++) {
    const mid = (low + high) / 2;
    const tried = greedy(ctx, text, fontPx, mid, spaceWidth);
    // A word cut between graphemes to fit is not a balanced line: narrower must not cut more.
    const cuts = (ls: Word[][]) => ls.reduce((n, l) => n + l.length, 0);
    if (tried.length <= lines.length && cuts(tried) === cuts(lines)) {
      best = tried;
      high = mid;
    } else low = mid;
  }
  return { fontPx, lines: best, spaceWidth };
}

const lineWidthOf = (line: Word[], spaceWidth: number) =>
  line.reduce((sum, w) => sum + w.width, 0) + spaceWidth * Math.max(0, line.length - 1);

/** The block's top edge: centred in its band, grown away from the frame edge when taller than it. */
function blockTop(position: CaptionPosition, blockHeight: number): number {
  const band = CAPTION_BANDS[position];
  const safe = CAPTION_SAFE_AREA;
  let top: number;
  if (blockHeight <= band.bottom - band.top) top = (band.top + band.bottom - blockHeight) / 2;
  else if (position === 'top') top = band.top;
  else if (position === 'bottom') top = band.bottom - blockHeight;
  else top = (band.top + band.bottom - blockHeight) / 2;
  return Math.min(Math.max(top, position === 'top' ? Math.min(TOP_BAND_START, safe.bottom - blockHeight) : safe.top), safe.bottom - blockHeight);
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

/** The lines and size a caption is drawn at: a caption never outgrows the safe area, unusually tall text is drawn smaller rather than cut. */
function planCaption(ctx: SKRSContext2D, text: string, size: CaptionSize): Layout {
  const safe = CAPTION_SAFE_AREA;
  let fontPx = CAPTION_FONT_PX[size] ?? CAPTION_FONT_PX.medium;
  for (;;) {
    const outline = Math.round(fontPx * OUTLINE);
    const plan = layout(ctx, text, fontPx, safe.right - safe.left - outline - 2 * INK_SLACK_PX);
    if (plan.lines.length * fontPx * LINE_HEIGHT + outline <= safe.bottom - safe.top || fontPx <= 24) return plan;
    fontPx = Math.floor(fontPx * 0.9);
  }
}

/** The caption's lines as they will be drawn (their text), for checks and previews that need the words, not the pixels. */
export function captionLines(spec: Pick<CaptionSpec, 'text' | 'size'>): string[] {
  const ctx = createCanvas(CANONICAL.width, 8).getContext('2d');
  const plan = planCaption(ctx, spec.text.trim(), spec.size);
  return plan.lines.map((line) => line.map((word) => word.runs.map((run) => run.text).join('')).join(' '));
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

  const safe = CAPTION_SAFE_AREA;
  const plan = planCaption(ctx, text, spec.size);
  const fontPx = plan.fontPx;
  const outline = Math.round(fontPx * OUTLINE);
  const lineHeight = fontPx * LINE_HEIGHT;
  const blockHeight = plan.lines.length * lineHeight;
  const top = blockTop(spec.position, blockHeight);
  const centreX = (safe.left + safe.right) / 2;

  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.lineWidth = outline;
  ctx.strokeStyle = 'rgba(0, 0, 0, 0.92)';
  ctx.fillStyle = '#ffffff';
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'left';
  plan.lines.forEach((line, i) => {
    const baseline = Math.round(top + (i + 0.5) * lineHeight + fontPx * BASELINE_BELOW_CENTRE);
    const startX = centreX - lineWidthOf(line, plan.spaceWidth) / 2;
    // Outlines of the whole line first, then the fills, so no outline bites into a neighbour's fill.
    for (const pass of ['stroke', 'fill'] as const) {
      let x = startX;
      for (const word of line) {
        for (const run of word.runs) {
          setFont(ctx, fontPx, run.emoji);
          const advance = ctx.measureText(run.text).width;
          if (pass === 'fill') ctx.fillText(run.text, x, baseline);
          else if (!run.emoji) ctx.strokeText(run.text, x, baseline);
          x += advance;
        }
        x += plan.spaceWidth;
      }
    }
  });

  // The box is measured from the pixels, so it is exactly what was drawn (outline and emoji included).
  const margin = fontPx;
  const regionTop = Math.max(0, Math.floor(top - margin));
  const region = { x: 0, y: regionTop, width: W, height: Math.min(H, Math.ceil(top + blockHeight + margin)) - regionTop };
  const box = inkBox(ctx, region);
  return { png: await canvas.encode('png'), box };
}
