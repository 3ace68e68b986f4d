import { pipelineHandler } from '#pipeline/lambda-handler';
import { BOOKKEEPING_STEPS } from '#pipeline/bookkeeping-steps';

export const handler = pipelineHandler(BOOKKEEPING_STEPS);
