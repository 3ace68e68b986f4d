import { createApiHandler } from '#http/api-handler';
import { socialConnectionOperations } from '#api/social-connections';
import { socialPostOperations } from '#api/social-posts';

export const handler = createApiHandler({ ...socialConnectionOperations, ...socialPostOperations });
