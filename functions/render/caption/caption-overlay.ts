/**
 * The filter that burns a caption into canonical video: the caption PNG cropped to what it draws and
 * blended there only (a full-frame RGBA overlay would blend 2 million pixels a frame, most of them
 * transparent), converted once with the video's own matrix. Used by the engine's encode and by the
 * caption segment of Compose, so both burn the same caption the same way.
 */
import { CANONICAL } from '../encoding/canonical-encoding';
import type { CaptionBox } from './caption';
const { ceil, floor, min } = Math;

/**
 * The caption's pixels as a rectangle on the 4:2:0 grid: the overlay is cropped to it, so only those
 * pixels are blended per frame rather than the whole transparent 1080x1920 picture.
 */
function evenRect(box: CaptionBox): CaptionBox {
  const x0 = floor(box.x / 2) * 2;
  const y0 = floor(box.y / 2) * 2;
  const x1 = min(CANONICAL.width, ceil((box.x + box.width) / 2) * 2);
  const y1 = min(CANONICAL.height, ceil((box.y + box.height) / 2) * 2);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Filter-graph chains laying the caption (`captionInput`, a 1080x1920 PNG, e.g. `[1:v]`) over
 * `[base]` (canonical yuv420p frames), ending in `tail` (the length trims and the output label).
 */
export function captionOverlayChains(captionInput: string, box: CaptionBox, tail: string): string[] {
  const r = evenRect(box);
  return [
    // The PNG is RGB: convert it with the frame's own matrix (BT.709, limited range), or ffmpeg's
    // BT.601 default would shift the colours of emoji against the video's.
    `${captionInput}crop=${r.width}:${r.height}:${r.x}:${r.y},scale=out_color_matrix=bt709:out_range=tv,format=yuva420p[cap]`,
    // A single-picture input ends after one frame; eof_action=repeat keeps it over every frame.
    `[base][cap]overlay=x=${r.x}:y=${r.y}:eof_action=repeat:format=yuv420,${tail}`,
  ];
}
