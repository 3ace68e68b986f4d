/**
 * The face of a still image (a file path or encoded bytes): decoded by sharp, found by human
 * (landmarks.ts). Apart from landmarks.ts so that code reading faces from clips alone needs no sharp.
 */
import sharp from 'sharp';
import { EngineError } from '#ports/engine';
import { uprightSize } from './upright-size';
import { detectInRgb, rigFromMesh, type DetectOptions, type FaceRig } from './landmarks';
const { max, min, round } = Math;

const MAX_DETECT_SIDE = 1600;

async function decodeForDetection(input: string | Buffer): Promise<{ rgb: Uint8Array; width: number; height: number; scale: number; fullWidth: number; fullHeight: number }> {
  const { width: fullWidth, height: fullHeight } = await uprightSize(input, 'The image');
  const scale = min(1, MAX_DETECT_SIDE / max(fullWidth, fullHeight));
  let pipeline = sharp(input).rotate().flatten({ background: '#808080' });
  if (scale < 1) pipeline = pipeline.resize(round(fullWidth * scale), round(fullHeight * scale), { fit: 'fill' });
  try {
    const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return {
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
      scale: info.width / fullWidth,
      fullWidth,
      fullHeight,
    };
  } catch (cause) {
    throw new EngineError('invalid_input', 'The image could not be decoded', { cause });
  }
}

/**
 * Finds the (largest) face in an image: a file path or encoded bytes (JPEG, PNG, WebP...). Returns
 * null when there is none usable; throws EngineError('invalid_input') for an unreadable image and
 * EngineError('engine_failure') when the models cannot run.
 */
export async function detectFace(input: string | Buffer, options: DetectOptions = {}): Promise<FaceRig | null> {
  const decoded = await decodeForDetection(input);
  const face = await detectInRgb(decoded.rgb, decoded.width, decoded.height, options);
  if (!face) return null;
  return rigFromMesh(face.mesh, { width: decoded.fullWidth, height: decoded.fullHeight }, 1 / decoded.scale, face.score ?? face.faceScore);
}
