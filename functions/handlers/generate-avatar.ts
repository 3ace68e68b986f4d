/** The generate-avatar worker: started asynchronously by POST /avatars when the avatar engine is hosted. */
import type { BackgroundTask } from '#ports/background-tasks';
import type { PortSource } from '#ports/ports';
import { generateAvatar } from '#use-cases/generate-avatar';
import { logger, withLambdaContext } from '#functions/logger';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { avatarEngines } from '#adapters/engines/avatar-engine';
import { sharedFalKey } from '#adapters/engines/credentials';
import { humanImageFaces } from '#adapters/media/human-image-faces';

export type GenerateTask = Extract<BackgroundTask, { type: 'generate-avatar' }>;

/** The worker over any runtime's wiring (the local stack runs it in process). */
export const createHandler = (dependencies: PortSource) => (task: GenerateTask) => generateAvatar({ ...dependencies(), log: logger }, task);

export const handler = withLambdaContext(
  createHandler(
    withParts(lambdaDependencies, (base) => ({
      engines: { ...base.engines, ...avatarEngines({ falKey: sharedFalKey(), blobs: base.blobs }) },
      // The portrait's face, found as an upload's is (human from the face-runtime layer).
      faces: { ...base.faces, ...humanImageFaces },
    })),
  ),
);
