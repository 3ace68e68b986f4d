/**
 * The one judge of which video container a file or download is, from its first bytes (never its name
 * or declared type: both are the sender's word). file-type reads the signatures; the rules of what we
 * take (which ISO brands, WebM but no other Matroska) are ours. Demo videos, reference uploads and
 * reference links all ask here, and ffprobe/ffmpeg then read the file with the demuxer named here
 * pinned (`-f`), so a file can never be decoded by a demuxer the sniff did not choose: ffmpeg's
 * auto-detection would hand a hostile file to whichever of its hundred-odd demuxers claims it.
 */
import { fileTypeFromBuffer } from 'file-type';
import { fileArg } from './binaries';

/** The containers the README promises: MP4, MOV, AVI and WebM (demo videos and motion references alike). */
export type VideoContainer = 'mp4' | 'mov' | 'avi' | 'webm';

/** ffmpeg's demuxer for each container; the only demuxers an upload ever reaches. */
const DEMUXERS = { mp4: 'mov', mov: 'mov', avi: 'avi', webm: 'matroska' } as const satisfies Record<VideoContainer, string>;

export type Demuxer = (typeof DEMUXERS)[VideoContainer];

/** Enough for every signature file-type and the checks below read (MPEG-TS needs its second sync byte at 188). */
export const SNIFF_BYTES = 512;

export type ContainerSniff = { container: VideoContainer; demuxer: Demuxer } | { refused: string };

/**
 * ISO-BMFF major brands of plain MP4 video, as phones, cameras, editors, screen recorders and ffmpeg
 * write them; any other brand (3GP, HEIF/AVIF, DASH/CMAF segments, F4V, camera raw) is not what the
 * README promises, so it is refused rather than handed to the mov demuxer.
 */
const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'M4VH', 'M4VP', 'M4A ', 'MSNV', 'XAVC', 'mmp4',
]);
/** QuickTime's own brand. */
const MOV_BRAND = 'qt  ';
/** Top-level atoms a QuickTime file may start with when it predates the `ftyp` box. */
const LEGACY_QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);
const IMAGE_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');
const found = (container: VideoContainer): ContainerSniff => ({ container, demuxer: DEMUXERS[container] });

// Hand-written because file-type names the ISO family, not the brand: DASH segments and F4V are "mp4" to it.
function sniffIsoMedia(head: Buffer): ContainerSniff {
  const brand = ascii(head, 8, 12);
  if (brand === MOV_BRAND) return found('mov');
  if (MP4_BRANDS.has(brand)) return found('mp4');
  if (brand.startsWith('3g')) return { refused: 'a 3GP video' };
  if (IMAGE_BRANDS.has(brand)) return { refused: 'a HEIF/AVIF image' };
  return { refused: `an ISO media file of brand "${brand.trim()}"` };
}

/** What a refused file looks like, by file-type's extension, so the user learns why. */
const LOOKS_LIKE: Record<string, string> = {
  mkv: 'a Matroska (MKV) video',
  png: 'a PNG image',
  apng: 'a PNG image',
  jpg: 'a JPEG image',
  gif: 'a GIF image',
  webp: 'a WebP image',
  wav: 'WAV audio',
  flv: 'an FLV video',
  mts: 'an MPEG-TS stream',
  mpg: 'an MPEG-PS stream',
  ogg: 'an Ogg file',
  ogv: 'an Ogg file',
  oga: 'an Ogg file',
  opus: 'an Ogg file',
  ogx: 'an Ogg file',
  spx: 'an Ogg file',
  mp3: 'MP3 audio',
  flac: 'FLAC audio',
  pdf: 'a PDF document',
  zip: 'a ZIP archive',
  xml: 'an HTML or XML document',
};

// Hand-written because file-type reads binary signatures only, and web pages and JSON have none.
function describeText(head: Buffer): string | undefined {
  const text = head.toString('utf8').replace(/^\ufeff/, '').trimStart().slice(0, 64).toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.startsWith('<head') || text.startsWith('<body')) return 'a web page';
  if (text.startsWith('<')) return 'an HTML or XML document';
  if (text.startsWith('{') || text.startsWith('[')) return 'a JSON document';
  return undefined;
}

/** The container of a file's first bytes (up to SNIFF_BYTES; fewer for a tiny file). */
export async function sniffVideoContainer(head: Buffer): Promise<ContainerSniff> {
  if (head.length === 0) return { refused: 'an empty file' };
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') return sniffIsoMedia(head);
  // Hand-written because file-type knows a QuickTime file without `ftyp` by some of its first atoms, not all.
  if (head.length >= 8 && LEGACY_QUICKTIME_ATOMS.has(ascii(head, 4, 8)) && head.readUInt32BE(0) >= 8) return found('mov');
  const type = await fileTypeFromBuffer(head);
  if (type?.ext === 'avi') return found('avi');
  if (type?.ext === 'webm') return found('webm');
  const text = type ? undefined : describeText(head);
  return { refused: (type && LOOKS_LIKE[type.ext]) ?? text ?? 'a file of unrecognised type' };
}

/**
 * The ffmpeg/ffprobe arguments that open an untrusted file: its demuxer pinned, and only the `file`
 * protocol allowed, so a crafted file (an HLS playlist, a `concat` list, a reference movie pointing
 * at a URL) can neither pick its own demuxer nor make ffmpeg open anything else.
 */
export function pinnedInput(file: string, demuxer: Demuxer): string[] {
  return ['-f', demuxer, '-protocol_whitelist', 'file', '-i', fileArg(file)];
}
