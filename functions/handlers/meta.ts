import { createPublicHandler } from '#http/public-handler';
import { metaOperations } from '#api/meta';
import type { DependencySource } from '#ports/dependencies';

const NONE: DependencySource = () => {
  throw new Error('the public routes reach no port');
};

/** The public routes reach no port, so this function loads no wiring and no AWS SDK. */
export const createHandler = (dependencies: DependencySource = NONE) => createPublicHandler(metaOperations, dependencies);

/** Also API Gateway's `$default` route: the request-context middleware answers 404/405 there. */
export const handler = createHandler();
