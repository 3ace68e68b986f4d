import { createApiHandler } from '#http/api-handler';
import { productOperations } from '#api/products';

export const handler = createApiHandler(productOperations);
