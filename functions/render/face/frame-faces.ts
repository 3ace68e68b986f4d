/**
 * The face-check function's half of a reference's face check (reference-face.ts): JPEG frames sampled
 * elsewhere, decoded by sharp and asked the question the local check asks of each decoded frame. Apart
 * from reference-face.ts so that the function sampling the frames (ffmpeg only) bundles no sharp.
 */
import sharp from 'sharp';
import { EngineError } from '#ports/engine';
import { detectInRgb } from './landmarks';
import { REFERENCE_FACE_CHECK } from './reference-face';
import { extentToBox, meshExtent, unionExtent, type Extent } from './face-box';
import { FACE_BOX_MIN_FACE } from './face-box-sampling';
import type { FaceBox } from '../reaction/reaction-clip';

/** A frame larger than this is no sampled frame (REFERENCE_FACE_CHECK makes at most 1280x360): refused undecoded. */
const MAX_FRAME_PIXELS = 2048 * 2048;

const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

/** One JPEG as RGB; anything else (another format, a broken or oversized JPEG) is EngineError('invalid_input'). */
async function decodeJpeg(jpeg: Uint8Array, index: number): Promise<{ rgb: Uint8Array; width: number; height: number }> {
  if (!JPEG_SIGNATURE.every((byte, i) => jpeg[i] === byte)) throw new EngineError('invalid_input', `frame ${index} is not a JPEG`);
  try {
    const { data, info } = await sharp(jpeg, { failOn: 'truncated', limitInputPixels: MAX_FRAME_PIXELS })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`${info.channels} channels`);
    return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (cause) {
    throw new EngineError('invalid_input', `frame ${index} could not be decoded as a JPEG: ${(cause as Error).message}`, { cause });
  }
}

/**
 * Whether any of `jpegs` (frames of a reference, in clip order) shows a face, as referenceShowsFace
 * judges a decoded frame; it stops at the first face. A frame that is not a decodable JPEG is
 * EngineError('invalid_input'); the face runtime failing is EngineError('engine_failure').
 */
export async function framesShowFace(jpegs: readonly Uint8Array[], options: { signal?: AbortSignal } = {}): Promise<boolean> {
  for (const [index, jpeg] of jpegs.entries()) {
    const { rgb, width, height } = await decodeJpeg(jpeg, index);
    if (await detectInRgb(rgb, width, height, { signal: options.signal, minFaceSize: REFERENCE_FACE_CHECK.minFaceSize })) return true;
  }
  return false;
}

/**
 * The eyes-to-mouth box over `jpegs` (frames of one clip at one size, sampleFaceBoxFramesJpeg), the
 * union of every frame's as findFaceBox makes it, in the frames' pixels; null when no frame shows a
 * face. Frames must share one size: a box over frames of different sizes would mean nothing.
 */
export async function faceBoxInFrames(jpegs: readonly Uint8Array[], options: { signal?: AbortSignal } = {}): Promise<FaceBox | null> {
  let extent: Extent | null = null;
  let size: { width: number; height: number } | null = null;
  for (const [index, jpeg] of jpegs.entries()) {
    const { rgb, width, height } = await decodeJpeg(jpeg, index);
    size ??= { width, height };
    if (width !== size.width || height !== size.height) throw new EngineError('invalid_input', `frame ${index} is ${width}x${height}, not ${size.width}x${size.height} as frame 0`);
    const face = await detectInRgb(rgb, width, height, { signal: options.signal, minFaceSize: FACE_BOX_MIN_FACE });
    if (face) extent = unionExtent(extent, meshExtent(face.mesh, 'eyes-to-mouth'));
  }
  return extent && size ? extentToBox(extent, 1, size) : null;
}
