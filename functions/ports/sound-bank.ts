/**
 * The built-in beds and reaction effects (domain/sound), made by the project itself: rendered into the
 * blob store the first time one is needed and found there afterwards, so every runtime (a Lambda, the
 * local stack) serves and mixes the same files without shipping audio in the repository.
 */
export interface SoundBank {
  /** The blob key of a built-in bed or effect (an AAC .m4a levelled to the sound target); throws for an unknown id. */
  builtInKey(id: string): Promise<string>;
}
