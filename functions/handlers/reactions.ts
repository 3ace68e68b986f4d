import { createApiHandler } from '#http/api-handler';
import { reactionOperations } from '#api/reactions';

export const handler = createApiHandler(reactionOperations);
