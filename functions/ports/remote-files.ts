/**
 * Files a request links to instead of sending (demo_video_url, image_url): downloaded from a public
 * https address only. Every adapter holds the reference downloader's line: the link and each redirect
 * hop are https to a host name that resolves only to public addresses (pinned for the connection),
 * the size cap is enforced while bytes arrive, time is capped, and a failure leaves no file behind.
 */

export interface RemoteFile {
  /** = destinationPath. */
  path: string;
  sizeBytes: number;
  /** The URL the file came from after redirects. */
  finalUrl: string;
}

/** `refused`: the link must change (not https, a private address, a 4xx...); `too_large`: over the cap; `unavailable`: try again later. */
export type RemoteFileRefusal = 'refused' | 'too_large' | 'unavailable';

export class RemoteFileError extends Error {
  constructor(
    readonly reason: RemoteFileRefusal,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'RemoteFileError';
  }
}

export interface RemoteFiles {
  download(url: string, options: { maxBytes: number; destinationPath: string }): Promise<RemoteFile>;
}
