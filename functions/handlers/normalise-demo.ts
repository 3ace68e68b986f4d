/** The normalise-demo worker: started asynchronously when a product's demo video is uploaded. */
import type { BackgroundTask } from '#ports/background-tasks';
import type { NeedsOf, PortSource } from '#ports/ports';
import { settleDemo } from '#use-cases/settle-demo';
import { logger, withLambdaContext } from '#functions/logger';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';
import { FfmpegDemoMedia } from '#adapters/media/ffmpeg-demo-media';

export type NormaliseTask = Extract<BackgroundTask, { type: 'normalise-demo' }>;

/** The worker over any runtime's wiring (the local stack runs it in process). */
export const createHandler = (ports: PortSource<NeedsOf<typeof settleDemo>>) => (task: NormaliseTask) => settleDemo({ ...ports(), log: logger }, task);

export const handler = withLambdaContext(createHandler(lambdaPorts(({ common, table }) => ({ ...common, ...dynamoStores(table()), demoMedia: new FfmpegDemoMedia() }))));
