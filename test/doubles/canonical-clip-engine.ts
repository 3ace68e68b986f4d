/**
 * A reaction engine double for suites that are not about rendering: every reaction is the same clip,
 * rendered once by the real local engine (test/support/global/canonical-clip.ts) and put at the asked
 * key, so a job runs its whole pipeline (compose joins the demo to it by stream copy) without drawing
 * or encoding a frame. It reports the asked caption as burnt in and writes the asked poster, as the
 * local engine does for auto jobs: the clip itself carries no caption, which only rendering suites check.
 * Like the local engine it stands in for, it says where the face is, so no job looks for it again.
 */
import { readFileSync, statSync } from 'node:fs';
import { EngineError, REACTION_CLIP, type AvatarRef, type GenerationOptions, type ReactionClip, type ReactionEngine } from '#ports/engine';
import type { BlobStore } from '#ports/blob-store';

export const CANONICAL_CLIP_ENV = 'RS_TEST_CANONICAL_CLIP';

export interface CanonicalClip {
  video: string;
  poster: string;
  durationS: number;
  emotion: string | null;
  /** Where the local engine drew the face (absent in a description cached before it was kept). */
  faceBox?: ReactionClip['faceBox'];
}

function canonicalClip(): CanonicalClip {
  const file = process.env[CANONICAL_CLIP_ENV];
  if (!file) throw new Error(`${CANONICAL_CLIP_ENV} is unset: run the tests through jest (npm test), whose global setup renders the canonical clip`);
  return JSON.parse(readFileSync(file, 'utf8')) as CanonicalClip;
}

export class CanonicalClipEngine implements ReactionEngine {
  readonly name = 'canonical-clip';
  private readonly clip = canonicalClip();

  constructor(private readonly blobs: Pick<BlobStore, 'putFile' | 'getToFile'>) {}

  async reactionFromPrompt(_avatar: AvatarRef, _prompt: string, options: GenerationOptions): Promise<ReactionClip> {
    return this.serve(options);
  }

  async reactionFromMotion(_avatar: AvatarRef, _referenceKey: string, options: GenerationOptions): Promise<ReactionClip> {
    return this.serve(options);
  }

  private async serve(options: GenerationOptions): Promise<ReactionClip> {
    if (options.signal?.aborted) throw new EngineError('cancelled', 'the generation was cancelled');
    await this.blobs.putFile(options.outputKey, this.clip.video, 'video/mp4');
    const video = { key: options.outputKey, contentType: 'video/mp4', sizeBytes: statSync(this.clip.video).size };
    let poster = null;
    if (options.posterKey) {
      await this.blobs.putFile(options.posterKey, this.clip.poster, 'image/jpeg');
      poster = { key: options.posterKey, contentType: 'image/jpeg', sizeBytes: statSync(this.clip.poster).size };
    }
    const { width, height, fps } = REACTION_CLIP;
    return { video, durationS: this.clip.durationS, width, height, fps, seed: options.seed, emotion: this.clip.emotion, engine: this.name, captioned: options.caption ?? null, faceBox: this.clip.faceBox ?? null, poster };
  }
}
