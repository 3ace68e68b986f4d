import { createApiHandler } from '#http/api-handler';
import { usageOperations } from '#api/usage';

export const handler = createApiHandler(usageOperations);
