import { createApiHandler } from '#http/api-handler';
import { videoJobOperations } from '#api/video-jobs';
import { finishedVideoOperations } from '#api/finished-videos';

export const handler = createApiHandler({ ...finishedVideoOperations, ...videoJobOperations });
