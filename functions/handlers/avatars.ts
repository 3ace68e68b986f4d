import { createApiHandler } from '#http/api-handler';
import { avatarOperations } from '#api/avatars';

export const handler = createApiHandler(avatarOperations);
