/**
 * The sample-demo worker: started asynchronously by POST /products/sample while this stack has no
 * sample clip yet. It draws the clip (Skia) and encodes it (ffmpeg), so it ships as a container image
 * holding both (lib/cloud/workers.ts).
 */
import type { BackgroundTask } from '#ports/background-tasks';
import type { NeedsOf, PortSource } from '#ports/ports';
import { settleSampleDemo } from '#use-cases/settle-sample-demo';
import { logger, withLambdaContext } from '#functions/logger';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';
import { BlobSampleDemo } from '#adapters/samples/blob-sample-demo';
import { renderSampleDemo } from '#render';

export type SampleDemoTask = Extract<BackgroundTask, { type: 'sample-demo' }>;

/** The worker over any runtime's wiring (the local stack runs it in process). */
export const createHandler = (ports: PortSource<NeedsOf<typeof settleSampleDemo>>) => (task: SampleDemoTask) => settleSampleDemo({ ...ports(), log: logger }, task);

export const handler = withLambdaContext(createHandler(lambdaPorts(({ common, table }) => ({ ...common, ...dynamoStores(table()), sampleDemo: new BlobSampleDemo(common.blobs, { render: renderSampleDemo }) }))));
