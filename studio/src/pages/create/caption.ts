/**
 * The hook caption's geometry as the API draws it (functions/render/caption/caption.ts, on a 1080x1920
 * frame), in fractions of the frame so a preview of any size shows the same layout: a safe area that
 * keeps clear of the short-video apps' own buttons, one band per position, and a font size per size.
 */
import type { Job } from '#client/types';

export type CaptionPosition = Job['hook_position'];
export type CaptionSize = Job['hook_size'];

export interface Caption {
  text: string;
  position: CaptionPosition;
  size: CaptionSize;
}

const FRAME = { width: 1080, height: 1920 };
const SAFE = { left: 120, right: FRAME.width - 120, top: 250, bottom: FRAME.height - 420 };

const BANDS: Record<CaptionPosition, { top: number; bottom: number }> = {
  top: { top: SAFE.top, bottom: FRAME.height / 3 },
  middle: { top: FRAME.height / 3, bottom: (FRAME.height * 2) / 3 },
  bottom: { top: (FRAME.height * 2) / 3, bottom: SAFE.bottom },
};

const FONT_PX: Record<CaptionSize, number> = { small: 54, medium: 68, large: 86 };

export const CAPTION_DEFAULTS: Caption = { text: '', position: 'top', size: 'medium' };
/** The API's limit on hook_text. */
export const HOOK_MAX = 100;

export const POSITION_OPTIONS: { value: CaptionPosition; label: string }[] = [
  { value: 'top', label: 'Top' },
  { value: 'middle', label: 'Middle' },
  { value: 'bottom', label: 'Bottom' },
];

export const SIZE_OPTIONS: { value: CaptionSize; label: string }[] = [
  { value: 'small', label: 'Small' },
  { value: 'medium', label: 'Medium' },
  { value: 'large', label: 'Large' },
];

/** Where the caption goes on a frame `width` px wide: percentages for the box, px for the type. */
export function captionLayout(caption: Pick<Caption, 'position' | 'size'>, width: number) {
  const band = BANDS[caption.position];
  const scale = width / FRAME.width;
  const fontPx = FONT_PX[caption.size] * scale;
  return {
    left: `${(SAFE.left / FRAME.width) * 100}%`,
    right: `${((FRAME.width - SAFE.right) / FRAME.width) * 100}%`,
    top: `${(band.top / FRAME.height) * 100}%`,
    height: `${((band.bottom - band.top) / FRAME.height) * 100}%`,
    fontPx,
    // The stroke is centred on the glyph edge, as the renderer draws it.
    outlinePx: fontPx * 0.16,
  };
}
