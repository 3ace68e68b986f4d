import { createPublicHandler } from '#http/public-handler';
import { metaOperations } from '#api/meta';

/** Also API Gateway's `$default` route: the request-context middleware answers 404/405 there. */
export const handler = createPublicHandler(metaOperations);
