import { createApiHandler } from '#http/api-handler';
import { analyticsOperations } from '#api/analytics';

export const handler = createApiHandler(analyticsOperations);
