/**
 * Tells from a download's first bytes whether it is a video container we take, before the rest is
 * written to disk: the reference-link downloader's view of media/video-container.ts, the one sniffer
 * that uploads use too, so a link and an upload accept the same containers (MP4, MOV, WebM, AVI).
 * Anything else (FLV, MPEG-TS, a web page, a JSON error, an image, an MP3) is refused with what it
 * looks like, so the user learns why. A container that passes may still hold no video (an M4A is ISO
 * media too): ffprobe, with the sniffed demuxer pinned, settles that once the file is complete.
 */
import { sniffVideoContainer as sniff, type VideoContainer } from '#render';

export { SNIFF_BYTES } from '#render';

export type SniffVerdict = { video: true; container: VideoContainer } | { video: false; looksLike: string };

/** The verdict on the first bytes of a download (up to SNIFF_BYTES; fewer for a tiny body). */
export async function sniffVideoContainer(head: Buffer): Promise<SniffVerdict> {
  const sniffed = await sniff(head);
  return 'refused' in sniffed ? { video: false, looksLike: sniffed.refused } : { video: true, container: sniffed.container };
}
