/**
 * Uploaded avatar images: JPG, PNG or WEBP judged by the bytes, at least 340x340, a still
 * image in RGB, decodable to the end. Accepted images are re-encoded: EXIF orientation applied, all
 * metadata (EXIF, GPS, ICC beyond sRGB) dropped, the long side capped so later rendering stays cheap.
 */
import sharp, { type Metadata } from 'sharp';
import { stat } from 'node:fs/promises';
import { AppError } from '#domain/errors';
import { AVATAR_UPLOAD_MAX_BYTES } from '#domain/uploads';

export const AVATAR_IMAGE_RULES = {
  maxBytes: AVATAR_UPLOAD_MAX_BYTES,
  minSide: 340,
  /** Pixel count above which an image is a decompression bomb, whatever its size in bytes. */
  maxPixels: 40_000_000,
  /** Stored images are scaled down to this long side. */
  storedMaxSide: 2048,
} as const;

const FORMATS = { jpeg: { extension: 'jpg', contentType: 'image/jpeg' }, png: { extension: 'png', contentType: 'image/png' }, webp: { extension: 'webp', contentType: 'image/webp' } } as const;
type AcceptedFormat = keyof typeof FORMATS;

export interface PreparedImage {
  data: Buffer;
  format: AcceptedFormat;
  extension: string;
  contentType: string;
  width: number;
  height: number;
}

const invalid = (field: string, message: string) => new AppError('invalid_media', `${field} ${message}`);

export async function prepareAvatarImage(path: string, field = 'image'): Promise<PreparedImage> {
  const { size } = await stat(path);
  if (size === 0) throw invalid(field, 'is empty');
  if (size > AVATAR_IMAGE_RULES.maxBytes) throw new AppError('payload_too_large', `${field} is larger than 10 MB`);

  let metadata: Metadata;
  try {
    // Reads the header only: dimensions are known before a single pixel is decoded.
    metadata = await sharp(path, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('unsupported_media_type', `${field} must be a JPG, PNG or WEBP image`);
  }
  const format = metadata.format as string;
  if (!(format in FORMATS)) {
    throw new AppError('unsupported_media_type', `${field} must be a JPG, PNG or WEBP image; got ${format.toUpperCase()}`);
  }
  const { width = 0, height = 0 } = metadata;
  if (width * height > AVATAR_IMAGE_RULES.maxPixels) {
    throw invalid(field, `is ${width}x${height}: at most ${AVATAR_IMAGE_RULES.maxPixels / 1_000_000} megapixels`);
  }
  if ((metadata.pages ?? 1) > 1) throw invalid(field, 'is animated; upload a still image');
  if (metadata.space === 'cmyk') throw invalid(field, 'uses CMYK colour; export it as RGB (sRGB) and upload again');
  // EXIF orientations 5-8 swap the sides.
  const [displayWidth, displayHeight] = (metadata.orientation ?? 1) >= 5 ? [height, width] : [width, height];
  if (displayWidth < AVATAR_IMAGE_RULES.minSide || displayHeight < AVATAR_IMAGE_RULES.minSide) {
    throw invalid(field, `is ${displayWidth}x${displayHeight}: it must be at least ${AVATAR_IMAGE_RULES.minSide}x${AVATAR_IMAGE_RULES.minSide}`);
  }

  const accepted = format as AcceptedFormat;
  try {
    const pipeline = sharp(path, { failOn: 'truncated', limitInputPixels: AVATAR_IMAGE_RULES.maxPixels })
      .rotate()
      .resize({ width: AVATAR_IMAGE_RULES.storedMaxSide, height: AVATAR_IMAGE_RULES.storedMaxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb');
    const encoded =
      accepted === 'jpeg'
        ? pipeline.jpeg({ quality: 90, mozjpeg: true })
        : accepted === 'png'
          ? pipeline.png({ compressionLevel: 8 })
          : pipeline.webp({ quality: 90 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { data, format: accepted, ...FORMATS[accepted], width: info.width, height: info.height };
  } catch {
    throw invalid(field, 'could not be decoded (truncated or damaged?); export it again and re-upload');
  }
}
