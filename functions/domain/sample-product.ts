/**
 * The sample product (POST /products/sample): a product like any other whose demo clip the project
 * draws itself (a fictional habit tracker, render/sample), so a new account reaches a finished video
 * before it has a clip of its own. The clip is made once per stack and copied into each sample
 * product, which then owns its copy like an uploaded demo (docs/decisions.md, Sample product).
 */
import { VIDEO_FRAME } from './video';

export const SAMPLE_PRODUCT = {
  name: 'Little Wins (sample)',
  description:
    'A fictional habit tracker whose demo clip Reaction Studio draws itself: a list of habits filling in, a tap, a week of progress growing. Make a first video with it, then add your own product.',
} as const;

/** What the clip is, whoever made it: the record of a sample product states these without probing it. */
export const SAMPLE_DEMO = {
  /** Changes whenever the drawing or its sound change, so a stack makes the new clip instead of reusing the old. */
  version: 1,
  fps: 30,
  frames: 180,
  durationS: 6,
  width: VIDEO_FRAME.width,
  height: VIDEO_FRAME.height,
} as const;

/** Every file the project makes once per stack and shares between accounts (the sample clip) lives under here. */
export const SAMPLES_PREFIX = 'samples/';

/** The stored clip: named by its version and by the canonical encoding it was made with, so neither change reuses a stale file. */
export const sampleDemoKey = (encodingId: string) => `${SAMPLES_PREFIX}demo/v${SAMPLE_DEMO.version}-${encodingId}.mp4`;
