/**
 * The sample-demo worker: started asynchronously by POST /products/sample while this stack has no
 * sample clip yet. It draws the clip (Skia) and encodes it (ffmpeg), so it ships as a container image
 * holding both (lib/cloud/workers.ts).
 */
import type { BackgroundTask } from '#ports/background-tasks';
import type { PortSource } from '#ports/ports';
import { settleSampleDemo } from '#use-cases/settle-sample-demo';
import { logger, withLambdaContext } from '#functions/logger';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { BlobSampleDemo } from '#adapters/samples/blob-sample-demo';
import { renderSampleDemo } from '#render';

export type SampleDemoTask = Extract<BackgroundTask, { type: 'sample-demo' }>;

/** The worker over any runtime's wiring (the local stack runs it in process). */
export const createHandler = (dependencies: PortSource) => (task: SampleDemoTask) => settleSampleDemo({ ...dependencies(), log: logger }, task);

export const handler = withLambdaContext(createHandler(withParts(lambdaDependencies, (base) => ({ sampleDemo: new BlobSampleDemo(base.blobs, { render: renderSampleDemo }) }))));
