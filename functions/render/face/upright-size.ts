/**
 * An image's size as it is shown: sharp reports the stored size, and EXIF orientations 5-8 (a phone
 * held upright) turn it a quarter, so width and height swap.
 */
import sharp, { type Metadata } from 'sharp';
import { EngineError } from '#ports/engine';

/** `what` names the image in the refusal ("The avatar image"): EngineError('invalid_input') when it cannot be read or has no size. */
export async function uprightSize(input: string | Buffer, what: string): Promise<{ width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(input).metadata();
  } catch (cause) {
    throw new EngineError('invalid_input', `${what} could not be read`, { cause });
  }
  const swap = (meta.orientation ?? 1) >= 5;
  const width = (swap ? meta.height : meta.width) ?? 0;
  const height = (swap ? meta.width : meta.height) ?? 0;
  if (!width || !height) throw new EngineError('invalid_input', `${what} has no size`);
  return { width, height };
}
