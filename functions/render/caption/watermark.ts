/**
 * The label a test job's video carries (domain/test-mode): white capitals on a red tab in the top-left
 * corner, inside the platforms' safe area (caption.ts, CAPTION_SAFE_AREA) and clear of where captions
 * go. It is laid over the frame with the caption, as one overlay picture, so it costs no extra blend.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { CANONICAL } from '../encoding/canonical-encoding';
import { registerFonts, renderCaptionPng, type CaptionBox, type CaptionImage, type CaptionSpec } from './caption';
const { ceil, max, min, round } = Math;

/** Top-left, inside the safe area's left edge and above its top band (the apps' status bar is lighter there). */
const LABEL = { x: 120, y: 170, fontPx: 64, padX: 28, padY: 14, radius: 18 } as const;
const LABEL_FILL = 'rgba(220, 20, 60, 0.92)';

const union = (a: CaptionBox, b: CaptionBox): CaptionBox => {
  if (a.width === 0) return b;
  const x = min(a.x, b.x);
  const y = min(a.y, b.y);
  return { x, y, width: max(a.x + a.width, b.x + b.width) - x, height: max(a.y + a.height, b.y + b.height) - y };
};

/**
 * The caption (null or blank: none) with `watermark` drawn in the corner, as one transparent 1080x1920
 * picture; its box covers both. Without a watermark it is the caption's own picture.
 */
export async function renderOverlayPng(caption: CaptionSpec | null, watermark: string | null): Promise<CaptionImage> {
  const captionImage = caption && caption.text.trim() ? await renderCaptionPng(caption) : null;
  if (!watermark) return captionImage ?? renderCaptionPng({ text: '', position: 'top', size: 'small' });
  const canvas = createCanvas(CANONICAL.width, CANONICAL.height);
  const ctx = canvas.getContext('2d');
  if (captionImage && captionImage.box.width > 0) ctx.drawImage(await loadImage(captionImage.png), 0, 0);
  ctx.font = `900 ${LABEL.fontPx}px ${registerFonts().heavy}`;
  ctx.textBaseline = 'alphabetic';
  const textWidth = ceil(ctx.measureText(watermark).width);
  const label = { x: LABEL.x, y: LABEL.y, width: textWidth + 2 * LABEL.padX, height: LABEL.fontPx + 2 * LABEL.padY };
  ctx.fillStyle = LABEL_FILL;
  ctx.beginPath();
  ctx.roundRect(label.x, label.y, label.width, label.height, LABEL.radius);
  ctx.fill();
  ctx.fillStyle = '#ffffff';
  // Montserrat's cap height is 0.70 em: a baseline 0.35 em below the tab's middle centres the capitals.
  ctx.fillText(watermark, label.x + LABEL.padX, round(label.y + label.height / 2 + LABEL.fontPx * 0.35));
  return { png: await canvas.encode('png'), box: union(captionImage?.box ?? { x: 0, y: 0, width: 0, height: 0 }, label) };
}
