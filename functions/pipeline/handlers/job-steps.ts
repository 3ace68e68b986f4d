import { pipelineHandler } from '../lambda-handler';
import { BOOKKEEPING_STEPS } from '../bookkeeping-steps';

export const handler = pipelineHandler(BOOKKEEPING_STEPS);
