/** The generate-avatar worker: started asynchronously by POST /avatars when the avatar engine is hosted. */
import type { DependencySource } from '#ports/dependencies';
import { generateAvatar, type GenerateTask } from '#workers/generate-avatar';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { avatarEngines } from '#adapters/engines/avatar-engine';
import { sharedFalKey } from '#adapters/engines/credentials';

/** The worker over any runtime's wiring (the local stack runs it in process). */
export const createHandler = (dependencies: DependencySource) => (task: GenerateTask) => generateAvatar(dependencies(), task);

export const handler = createHandler(
  withParts(lambdaDependencies, (base) => ({ engines: { ...base.engines, ...avatarEngines({ falKey: sharedFalKey() }) } })),
);
