/**
 * Reads what the browser can tell of a chosen file without sending it: a video's display size and
 * length from a <video> element's metadata, a sound's length from an <audio>, an image's size from an
 * Image (both apply rotation: the size is the one a person sees). Nothing is played or uploaded.
 */
import { judgeFile, judgeMedia, type MediaFacts } from './file-check';
import type { FileRule } from './limits';

/** A file the browser cannot decode (an AVI, a codec it lacks) answers nothing within this; the API then judges it. */
const READ_TIMEOUT_MS = 10_000;

function withTimeout<T>(work: Promise<T>, onTimeout: T): Promise<T> {
  return Promise.race([work, new Promise<T>((resolve) => setTimeout(() => resolve(onTimeout), READ_TIMEOUT_MS))]);
}

async function mediaElementFacts(url: string, kind: 'video' | 'audio'): Promise<MediaFacts | null> {
  const element = document.createElement(kind);
  element.preload = 'metadata';
  element.muted = true;
  const loaded = new Promise<boolean>((resolve) => {
    element.onloadedmetadata = () => resolve(true);
    element.onerror = () => resolve(false);
  });
  element.src = url;
  try {
    if (!(await withTimeout(loaded, false))) return null;
    let durationS = element.duration;
    // A recording straight from a browser (MediaRecorder WebM) states no length until read to its end.
    if (durationS === Infinity) {
      const known = new Promise<void>((resolve) => (element.ondurationchange = () => element.duration !== Infinity && resolve()));
      element.currentTime = Number.MAX_SAFE_INTEGER;
      await withTimeout(known, undefined);
      durationS = element.duration;
    }
    const facts: MediaFacts = Number.isFinite(durationS) && durationS > 0 ? { durationS } : {};
    if (element instanceof HTMLVideoElement && element.videoWidth > 0) Object.assign(facts, { width: element.videoWidth, height: element.videoHeight });
    return facts;
  } finally {
    element.removeAttribute('src');
    element.load();
  }
}

async function imageFacts(url: string): Promise<MediaFacts | null> {
  const image = new Image();
  image.src = url;
  const decoded = await withTimeout(
    image.decode().then(
      () => true,
      () => false,
    ),
    false,
  );
  return decoded ? { width: image.naturalWidth, height: image.naturalHeight } : null;
}

async function readMediaFacts(file: Blob, media: FileRule['media']): Promise<MediaFacts | null> {
  const url = URL.createObjectURL(file);
  try {
    return media === 'image' ? await imageFacts(url) : await mediaElementFacts(url, media);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export interface FileVerdict {
  /** Null when the file may be sent, else what is wrong in words. */
  refusal: string | null;
  /** What the browser read of it (its shape and length), null when it could read nothing. */
  facts: MediaFacts | null;
}

/** The whole check of a chosen file, with what was read of it for the form (a demo's shape, say). */
export async function checkFile(rule: FileRule, file: File): Promise<FileVerdict> {
  const refusal = judgeFile(rule, file);
  if (refusal) return { refusal, facts: null };
  const facts = await readMediaFacts(file, rule.media);
  return { refusal: facts ? judgeMedia(rule, file.name, facts) : null, facts };
}
