/**
 * A file judged in the browser before any byte is sent: its kind and size first, then (once the
 * browser has read its metadata) its length, shape and size in pixels, against the API's own limits
 * (limits.ts). The API judges every file again by its bytes; this only spares a person a wasted upload
 * and says what to change in words. What the browser cannot read is left to the API.
 */
import type { FileRule } from './limits';

/** What is known of a chosen file without reading it. */
export interface ChosenFile {
  name: string;
  /** The browser's guess from the name; empty for some endings (.mov on Linux, say). */
  type: string;
  size: number;
}

/** What the browser read of the file: a video's or an image's display size, a video's or a sound's length. */
export interface MediaFacts {
  width?: number;
  height?: number;
  durationS?: number;
}

const extensionOf = (name: string) => (name.includes('.') ? name.split('.').pop()!.toLowerCase() : '');

/** The media type POST /uploads is told, or null when the file is of no kind the rule takes. */
export function declaredType(rule: FileRule, file: ChosenFile): string | null {
  const type = file.type.toLowerCase();
  if (rule.types.includes(type)) return type;
  // A browser may name a kind otherwise than the API does (video/avi for video/x-msvideo), or not at all.
  const byName = rule.extensions[extensionOf(file.name)];
  return byName && rule.types.includes(byName) ? byName : null;
}

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${bytes >= 10 * MB ? Math.round(bytes / MB) : Math.round((bytes / MB) * 10) / 10} MB`;

/** A limit in words: "60 s", "3 minutes". */
function durationLimit(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  return seconds % 60 === 0 ? `${seconds / 60} minutes` : clock(seconds);
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;
/** A measured length in words: "45.2 s", "3:20". */
const measured = (seconds: number) => (seconds < 60 ? `${Math.round(seconds * 10) / 10} s` : clock(seconds));

/** The limits a person reads next to the field before choosing anything. */
export function hintOf(rule: FileRule): string {
  const portrait = rule.reframable ? 'portrait, or landscape and square ones reframed to 9:16' : 'portrait (taller than wide)';
  const shape = [rule.portrait ? portrait : '', rule.minSidePx && rule.media === 'image' ? `at least ${rule.minSidePx}×${rule.minSidePx} px` : ''].filter(Boolean);
  if (rule.trimmable && rule.maxDurationS) return [rule.formats, ...shape, `at most ${megabytes(rule.maxBytes)}`, `up to ${durationLimit(rule.maxDurationS)} of it kept`].join('; ');
  const most = [rule.maxDurationS ? durationLimit(rule.maxDurationS) : '', megabytes(rule.maxBytes)].filter(Boolean).join(' and ');
  return [rule.formats, ...shape, `at most ${most}`].join('; ');
}

/** The `accept` attribute of the file field: the types and the endings that stand for them. */
export function acceptOf(rule: FileRule): string {
  return [...rule.types, ...Object.keys(rule.extensions).map((extension) => `.${extension}`)].join(',');
}

/** Kind and size: judged before the file is read at all. Null when both are fine. */
export function judgeFile(rule: FileRule, file: ChosenFile): string | null {
  if (!declaredType(rule, file)) return `“${file.name}” is not a kind of ${rule.what} that can be used: choose ${rule.formats}.`;
  if (file.size === 0) return `“${file.name}” is empty: choose the ${rule.what} again.`;
  if (file.size > rule.maxBytes) return `“${file.name}” is ${megabytes(file.size)}: a ${rule.what} may be at most ${megabytes(rule.maxBytes)}.`;
  return null;
}

/**
 * Length, shape and pixels from what the browser read. Null when fine, or when nothing could be read.
 * A rule that is `reframable` or `trimmable` takes any shape or length: the form asks what to do with it.
 */
export function judgeMedia(rule: FileRule, name: string, facts: MediaFacts): string | null {
  const { width, height, durationS } = facts;
  // A trimmable file's length is the form's to judge, against the part it keeps (demo-intake.ts).
  if (durationS !== undefined && rule.maxDurationS !== undefined && !rule.trimmable && durationS > rule.maxDurationS + (rule.durationGraceS ?? 0)) {
    return `“${name}” is ${measured(durationS)} long: a ${rule.what} may be at most ${durationLimit(rule.maxDurationS)}. Trim it, then choose it again.`;
  }
  if (width === undefined || height === undefined || !(width > 0 && height > 0)) return null;
  if (rule.portrait && !rule.reframable && !(height > width)) {
    const shape = width === height ? 'square' : 'landscape';
    return `“${name}” is ${shape} (${width}×${height}): the ${rule.what} must be portrait, taller than wide. Export it vertical, e.g. 1080×1920.`;
  }
  if (rule.minSidePx !== undefined && Math.min(width, height) < rule.minSidePx) {
    return `“${name}” is ${width}×${height}: a ${rule.what} must be at least ${rule.minSidePx} px on each side.`;
  }
  if (rule.maxPixels !== undefined && width * height > rule.maxPixels) {
    return `“${name}” is ${width}×${height}: a ${rule.what} may have at most ${rule.maxPixels / 1_000_000} megapixels.`;
  }
  return null;
}
