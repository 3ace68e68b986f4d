/**
 * The sample product's demo clip (domain/sample-product), made by the project itself once per stack
 * and kept in the blob store, from where every sample product gets its own copy.
 */
import type { NormalisedDemo } from './demo-media';

export interface StoredSampleDemo {
  /** The shared clip's blob key (copy it; never hand it out or delete it). */
  key: string;
  /** What a product's demo record says about it: the canonical encoding, levelled. */
  demo: NormalisedDemo;
}

export interface SampleDemo {
  /** The clip this stack already made, or undefined before the first one is made: one read, no drawing. */
  find(): Promise<StoredSampleDemo | undefined>;
  /**
   * Draws and encodes the clip and stores it (a minute of a vCPU at most): only where the drawing is
   * bundled (the sample-demo worker, the local stack); elsewhere it throws.
   */
  make(): Promise<StoredSampleDemo>;
}
