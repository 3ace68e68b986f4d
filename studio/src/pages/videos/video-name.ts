/**
 * What a video is called where people see it: "<product name> · <hook>", the two things that tell one
 * video from the next (an id tells nothing), and the file name a download gets from it.
 */
export interface VideoNameParts {
  /** The video's id; null for a job that has none yet. */
  id: number | null;
  productName?: string | null;
  hookText?: string | null;
}

export function videoName({ id, productName, hookText }: VideoNameParts): string {
  const hook = hookText?.trim();
  const product = productName?.trim();
  if (product && hook) return `${product} · ${hook}`;
  if (product) return id ? `${product} · video ${id}` : product;
  if (hook) return hook;
  return id ? `Video #${id}` : 'New video';
}

// eslint-disable-next-line no-control-regex -- control and direction characters are what is removed
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/gu;
/** Refused in file names by Windows, and the path separators of every system. */
const FORBIDDEN = /[<>:"/\\|?*]/g;
/** Names Windows keeps for devices, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i;
const NAME_MAX = 100;

/**
 * A file name any system saves as given: the name without control, direction and forbidden
 * characters, no leading dot (hidden) or trailing dot or space (Windows drops them), at most 100
 * characters (code points, so an emoji is never cut in half), `.mp4` after it.
 */
export function downloadFileName(name: string, id: number): string {
  const cleaned = name.normalize('NFC').replace(INVISIBLE, '').replace(FORBIDDEN, ' ').replace(/\s+/g, ' ').trim();
  const cut = [...cleaned].slice(0, NAME_MAX).join('').replace(/^[.\s]+|[.\s]+$/g, '');
  return `${cut && !RESERVED.test(cut) ? cut : `reaction-video-${id}`}.mp4`;
}
