/** Uploaded avatar images (sharp): checked and re-encoded before anything is written. */

export interface PreparedAvatarImage {
  data: Buffer;
  extension: string;
  contentType: string;
  width: number;
  height: number;
}

export interface AvatarImages {
  /** Refusals are AppErrors a client can act on (413 payload_too_large, 415, 422 invalid_media). */
  prepare(path: string): Promise<PreparedAvatarImage>;
}
