import { pipelineHandler } from '../lambda-handler';

export const handler = pipelineHandler('render');
