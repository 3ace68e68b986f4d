/** The steps of the `render` function: generation and ffmpeg work. */
import { generateReaction } from './tasks/generate-reaction';
import { renderPreview } from './tasks/render-preview';
import { compose } from './tasks/compose';
import type { StepTable } from './step-tables';

export const RENDER_STEPS: StepTable = {
  generate_reaction: generateReaction,
  render_preview: renderPreview,
  compose,
};
