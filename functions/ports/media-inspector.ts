/**
 * Judges an uploaded reference clip before a job accepts it: a video the pipeline can read, within
 * the reference limits. Refusals are AppErrors a client can act on (415 unsupported_media_type,
 * 422 invalid_media); a missing probe tool is a plain Error (our fault, a 500).
 */

export interface ReferenceClip {
  /** The media type to store the clip under, from what its bytes are. */
  contentType: string;
  durationS: number;
}

export interface MediaInspector {
  inspectReference(path: string, field?: string): Promise<ReferenceClip>;
}
