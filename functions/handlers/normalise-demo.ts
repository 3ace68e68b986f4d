/** The normalise-demo worker: started asynchronously when a product's demo video is uploaded. */
import type { BackgroundTask } from '#ports/background-tasks';
import type { PortSource } from '#ports/ports';
import { settleDemo } from '#use-cases/settle-demo';
import { logger, withLambdaContext } from '#functions/logger';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { FfmpegDemoMedia } from '#adapters/media/ffmpeg-demo-media';

export type NormaliseTask = Extract<BackgroundTask, { type: 'normalise-demo' }>;

/** The worker over any runtime's wiring (the local stack runs it in process). */
export const createHandler = (dependencies: PortSource) => (task: NormaliseTask) => settleDemo({ ...dependencies(), log: logger }, task);

export const handler = withLambdaContext(createHandler(withParts(lambdaDependencies, () => ({ demoMedia: new FfmpegDemoMedia() }))));
