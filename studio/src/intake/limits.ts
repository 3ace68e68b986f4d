/**
 * The API's limits on what a person types and uploads, in one place for the whole studio: the
 * counters, the file checks and the hints next to each field read them from here. The studio cannot
 * import the service (a browser app sees only the API): the tables the typed client publishes (caption
 * limits, upload media types) are the service's own; the rest are the API's numbers held here and held
 * to the service's own by test/studio/limits.test.ts, which fails the moment either side moves.
 */
import { UPLOAD_CONTENT_TYPES } from '#client/limits';

export { CAPTION_LIMITS } from '#client/limits';

/**
 * How the API counts a field, in Unicode code points (an emoji is one, whatever its UTF-16 length, as
 * zod's `maxLength` counts): `trimmed` after zod's `z.trim()` drops the spaces around the text;
 * `code-points` as typed, spaces included (a post's caption, as the networks count it).
 */
type Counting = 'trimmed' | 'code-points';

export interface TextLimit {
  max: number;
  /** The least the API takes when the field is sent (empty optional fields are left out). */
  min?: number;
  counting: Counting;
}

const trimmed = (max: number, min?: number): TextLimit => ({ max, counting: 'trimmed', ...(min ? { min } : {}) });

export const TEXT_LIMITS = {
  /** hook_text (POST /videos, approve, POST /captions/preview). */
  hookText: trimmed(100),
  /** voice_line (POST /videos, regenerate). */
  voiceLine: trimmed(100),
  /** A video's reaction prompt (POST /videos, regenerate). */
  reactionPrompt: trimmed(1000),
  /** An avatar's prompt (POST /avatars). */
  avatarPrompt: trimmed(1000, 3),
  productName: trimmed(200),
  productDescription: trimmed(2000),
  /** An API key's name (POST /keys). */
  keyName: trimmed(100),
  /** The person's name at sign-up. */
  personName: trimmed(100),
} as const satisfies Record<string, TextLimit>;

/** A post's caption, counted as the networks count it (CAPTION_LIMITS holds each network's most). */
export const captionLimitOf = (max: number): TextLimit => ({ max, counting: 'code-points' });

/** The four kinds of file the studio sends, by the upload purpose the API names them with. */
export type FilePurpose = 'demo_video' | 'avatar_image' | 'reference_video' | 'music';

export interface FileRule {
  /** How the hints and refusals name the file: "demo video". */
  what: string;
  /** What a person reads of the formats: "MP4, MOV, AVI or WebM". */
  formats: string;
  /** The media types POST /uploads takes for the purpose. */
  types: readonly string[];
  /** File name endings that stand for those types when the browser gives none (or another). */
  extensions: Readonly<Record<string, string>>;
  maxBytes: number;
  /** What the browser reads of it before sending: a <video>'s or <audio>'s metadata, or an Image. */
  media: 'video' | 'audio' | 'image';
  maxDurationS?: number;
  /** Players round a 3:00 export to 180.0x s; the API lets this much past the limit through. */
  durationGraceS?: number;
  /** The least pixels on the short side. */
  minSidePx?: number;
  /** Pixels past which an image is refused whatever its size in bytes. */
  maxPixels?: number;
  /** Taller than wide. */
  portrait?: boolean;
  /** A landscape or square one is taken too: the form then asks how to make it portrait (`reframe`). */
  reframable?: boolean;
  /** A longer one is taken too: the form then asks which part to keep (`demo_start_s`, `demo_end_s`), at most `maxDurationS`. */
  trimmable?: boolean;
}

const MB = 1024 * 1024;

const VIDEO_EXTENSIONS = { mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', avi: 'video/x-msvideo', webm: 'video/webm' } as const;

export const FILE_RULES: Record<FilePurpose, FileRule> = {
  demo_video: {
    what: 'demo video',
    formats: 'MP4, MOV, AVI or WebM',
    types: UPLOAD_CONTENT_TYPES.demo_video,
    extensions: VIDEO_EXTENSIONS,
    maxBytes: 50 * MB,
    media: 'video',
    maxDurationS: 180,
    durationGraceS: 0.5,
    minSidePx: 240,
    portrait: true,
    reframable: true,
    trimmable: true,
  },
  avatar_image: {
    what: 'photo',
    formats: 'JPEG, PNG or WebP',
    types: UPLOAD_CONTENT_TYPES.avatar_image,
    extensions: { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' },
    maxBytes: 10 * MB,
    media: 'image',
    minSidePx: 340,
    maxPixels: 40_000_000,
  },
  reference_video: {
    what: 'reference video',
    formats: 'MP4, MOV, WebM or AVI',
    types: UPLOAD_CONTENT_TYPES.reference_video,
    extensions: VIDEO_EXTENSIONS,
    maxBytes: 100 * MB,
    media: 'video',
    maxDurationS: 60,
  },
  music: {
    what: 'track',
    formats: 'MP3, M4A/AAC, WAV, OGG/Opus or FLAC',
    types: UPLOAD_CONTENT_TYPES.music,
    extensions: { mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/opus', flac: 'audio/flac' },
    maxBytes: 20 * MB,
    media: 'audio',
    maxDurationS: 600,
    durationGraceS: 0.5,
  },
};
