/**
 * Tells from a download's first bytes whether it is a video container at all, before the rest is
 * written to disk. Short-video CDNs serve MP4 almost always, sometimes WebM, MPEG-TS or FLV; anything
 * else (a web page, a JSON error, an image, an MP3) is refused with what it looks like, so the user
 * learns why. A container that passes may still hold no video (an M4A is ISO media too): ffprobe
 * settles that once the file is complete.
 */

/** Enough for every signature below (MPEG-TS needs its second sync byte at 188). */
export const SNIFF_BYTES = 512;

export type SniffVerdict = { video: true; container: string } | { video: false; looksLike: string };

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');

const IMAGE_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);
/** Top-level atoms a QuickTime file may start with when it predates the `ftyp` box. */
const LEGACY_QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

function describeOther(head: Buffer): string {
  const text = head.toString('utf8').replace(/^\ufeff/, '').trimStart().slice(0, 64).toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.startsWith('<head') || text.startsWith('<body')) return 'a web page';
  if (text.startsWith('<')) return 'an HTML or XML document';
  if (text.startsWith('{') || text.startsWith('[')) return 'a JSON document';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'a PNG image';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'a JPEG image';
  if (ascii(head, 0, 4) === 'GIF8') return 'a GIF image';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'a WebP image';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'WAV audio';
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'MP3 audio';
  if (ascii(head, 0, 4) === 'fLaC') return 'FLAC audio';
  if (ascii(head, 0, 5) === '%PDF-') return 'a PDF document';
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'a ZIP archive';
  return 'a file of unrecognised type';
}

/** Pure: the verdict on the first bytes of a download (up to SNIFF_BYTES; fewer for a tiny body). */
export function sniffVideoContainer(head: Buffer): SniffVerdict {
  if (head.length === 0) return { video: false, looksLike: 'an empty file' };
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (IMAGE_BRANDS.has(brand)) return { video: false, looksLike: 'a HEIF/AVIF image' };
    return { video: true, container: brand === 'qt  ' ? 'mov' : 'mp4' };
  }
  if (head.length >= 8 && LEGACY_QUICKTIME_ATOMS.has(ascii(head, 4, 8)) && head.readUInt32BE(0) >= 8) {
    return { video: true, container: 'mov' };
  }
  if (head.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) return { video: true, container: 'webm' };
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'AVI ') return { video: true, container: 'avi' };
  if (ascii(head, 0, 3) === 'FLV' && head[3] === 0x01) return { video: true, container: 'flv' };
  if (head[0] === 0x47 && head.length > 188 && head[188] === 0x47) return { video: true, container: 'mpegts' };
  if (head.subarray(0, 4).equals(Buffer.from([0x00, 0x00, 0x01, 0xba]))) return { video: true, container: 'mpegps' };
  if (ascii(head, 0, 4) === 'OggS') return { video: true, container: 'ogg' };
  return { video: false, looksLike: describeOther(head) };
}
