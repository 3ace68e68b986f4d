import { pipelineHandler } from '../lambda-handler';
import { RENDER_STEPS } from '../render-steps';

export const handler = pipelineHandler(RENDER_STEPS);
