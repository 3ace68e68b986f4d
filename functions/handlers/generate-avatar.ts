/** The generate-avatar worker: started asynchronously by POST /avatars when the avatar engine is hosted. */
import type { BackgroundTask } from '#ports/background-tasks';
import type { NeedsOf, PortSource } from '#ports/ports';
import { generateAvatar } from '#use-cases/generate-avatar';
import { logger, withLambdaContext } from '#functions/logger';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';
import { avatarEngines } from '#adapters/engines/avatar-engine';
import { sharedFalKey } from '#adapters/engines/credentials';
import { humanImageFaces } from '#adapters/media/human-image-faces';

export type GenerateTask = Extract<BackgroundTask, { type: 'generate-avatar' }>;

/** The worker over any runtime's wiring (the local stack runs it in process). */
export const createHandler = (ports: PortSource<NeedsOf<typeof generateAvatar>>) => (task: GenerateTask) => generateAvatar({ ...ports(), log: logger }, task);

export const handler = withLambdaContext(
  createHandler(
    lambdaPorts(({ common, table }) => ({
      ...common,
      ...dynamoStores(table()),
      engines: avatarEngines({ falKey: sharedFalKey(), blobs: common.blobs }),
      // The portrait's face, found as an upload's is (human from the face-runtime layer).
      faces: humanImageFaces,
    })),
  ),
);
