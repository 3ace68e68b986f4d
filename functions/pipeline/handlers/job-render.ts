import { pipelineHandler } from '#pipeline/lambda-handler';
import { RENDER_STEPS } from '#pipeline/render-steps';

export const handler = pipelineHandler(RENDER_STEPS);
