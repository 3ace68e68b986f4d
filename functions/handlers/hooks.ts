import { createApiHandler } from '#http/api-handler';
import { hookOperations } from '#api/hooks';

export const handler = createApiHandler(hookOperations);
