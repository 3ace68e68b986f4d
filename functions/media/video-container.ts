/**
 * The one judge of which video container a file or download is, from its first bytes (never its name
 * or declared type, DESIGN §2). Demo videos, reference uploads and reference links all ask here, and
 * ffprobe/ffmpeg then read the file with the demuxer named here pinned (`-f`), so a file can never be
 * decoded by a demuxer the sniff did not choose: ffmpeg's auto-detection would hand a hostile file to
 * whichever of its hundred-odd demuxers claims it.
 */
import { fileArg } from './binaries';

/** The containers the README promises somewhere: MP4, MOV, AVI (demo videos) and WebM (references). */
export type VideoContainer = 'mp4' | 'mov' | 'avi' | 'webm';

/** ffmpeg's demuxer for each container; the only demuxers an upload ever reaches. */
export const DEMUXERS = { mp4: 'mov', mov: 'mov', avi: 'avi', webm: 'matroska' } as const satisfies Record<VideoContainer, string>;

export type Demuxer = (typeof DEMUXERS)[VideoContainer];

/** Enough for every signature below (MPEG-TS needs its second sync byte at 188). */
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

/** How a refusal names an accepted container that the caller does not take (a WebM demo video). */
export const CONTAINER_LABELS: Record<VideoContainer, string> = {
  mp4: 'an MP4 video',
  mov: 'a MOV video',
  avi: 'an AVI video',
  webm: 'a WebM/Matroska video',
};

const ascii = (bytes: Buffer, start: number, end: number) => bytes.subarray(start, end).toString('latin1');
const found = (container: VideoContainer): ContainerSniff => ({ container, demuxer: DEMUXERS[container] });
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

function sniffIsoMedia(head: Buffer): ContainerSniff {
  const brand = ascii(head, 8, 12);
  if (brand === MOV_BRAND) return found('mov');
  if (MP4_BRANDS.has(brand)) return found('mp4');
  if (brand.startsWith('3g')) return { refused: 'a 3GP video' };
  if (IMAGE_BRANDS.has(brand)) return { refused: 'a HEIF/AVIF image' };
  return { refused: `an ISO media file of brand "${brand.trim()}"` };
}

/** WebM is Matroska with DocType "webm", which sits in the EBML header, inside the first bytes. */
function sniffEbml(head: Buffer): ContainerSniff {
  const header = ascii(head, 4, Math.min(head.length, 64));
  if (header.includes('webm')) return found('webm');
  if (header.includes('matroska')) return { refused: 'a Matroska (MKV) video' };
  return { refused: 'an EBML file that is not WebM' };
}

/** Names what a refused file looks like, so the user learns why. */
function describeOther(head: Buffer): string {
  const text = head.toString('utf8').replace(/^\ufeff/, '').trimStart().slice(0, 64).toLowerCase();
  if (text.startsWith('<!doctype html') || text.startsWith('<html') || text.startsWith('<head') || text.startsWith('<body')) return 'a web page';
  if (text.startsWith('<')) return 'an HTML or XML document';
  if (text.startsWith('{') || text.startsWith('[')) return 'a JSON document';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'a PNG image';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'a JPEG image';
  if (ascii(head, 0, 4) === 'GIF8') return 'a GIF image';
  if (ascii(head, 0, 4) === 'RIFF') {
    const form = ascii(head, 8, 12);
    if (form === 'WAVE') return 'WAV audio';
    if (form === 'WEBP') return 'a WebP image';
    return 'a RIFF file that is not AVI';
  }
  if (ascii(head, 0, 3) === 'FLV' && head[3] === 0x01) return 'an FLV video';
  if (head[0] === 0x47 && head.length > 188 && head[188] === 0x47) return 'an MPEG-TS stream';
  if (head.subarray(0, 4).equals(Buffer.from([0x00, 0x00, 0x01, 0xba]))) return 'an MPEG-PS stream';
  if (ascii(head, 0, 4) === 'OggS') return 'an Ogg file';
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'MP3 audio';
  if (ascii(head, 0, 4) === 'fLaC') return 'FLAC audio';
  if (ascii(head, 0, 5) === '%PDF-') return 'a PDF document';
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return 'a ZIP archive';
  return 'a file of unrecognised type';
}

/** Pure: the container of a file's first bytes (up to SNIFF_BYTES; fewer for a tiny file). */
export function sniffVideoContainer(head: Buffer): ContainerSniff {
  if (head.length === 0) return { refused: 'an empty file' };
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') return sniffIsoMedia(head);
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'AVI ') return found('avi');
  if (head.subarray(0, 4).equals(EBML_MAGIC)) return sniffEbml(head);
  if (head.length >= 8 && LEGACY_QUICKTIME_ATOMS.has(ascii(head, 4, 8)) && head.readUInt32BE(0) >= 8) return found('mov');
  return { refused: describeOther(head) };
}

/**
 * The ffmpeg/ffprobe arguments that open an untrusted file: its demuxer pinned, and only the `file`
 * protocol allowed, so a crafted file (an HLS playlist, a `concat` list, a reference movie pointing
 * at a URL) can neither pick its own demuxer nor make ffmpeg open anything else.
 */
export function pinnedInput(file: string, demuxer: Demuxer): string[] {
  return ['-f', demuxer, '-protocol_whitelist', 'file', '-i', fileArg(file)];
}
