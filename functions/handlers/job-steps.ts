import { pipelineHandler } from '#pipeline/run-step';
import type { TasksOf } from '#pipeline/steps';
import { prepare } from '#pipeline/tasks/prepare';
import { chargePreview } from '#pipeline/tasks/charge-preview';
import { awaitDecision } from '#pipeline/tasks/await-decision';
import { finalize } from '#pipeline/tasks/finalize';
import { markFailed } from '#pipeline/tasks/mark-failed';
import { awaitCapacity } from '#pipeline/tasks/await-capacity';
import type { PortSource } from '#ports/ports';
import { lambdaDependencies } from '#wiring/lambda';
import { withParts } from '#wiring/not-bundled';
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';

/** The bookkeeping steps (records, charges, the preview wait, failures): no media code in this bundle. */
export const tasks: TasksOf<'steps'> = {
  prepare,
  charge_preview: chargePreview,
  await_decision: (payload, deps) => awaitDecision(payload, deps),
  finalize: (payload, deps) => finalize(payload, deps),
  mark_failed: markFailed,
  await_capacity: (payload, deps) => awaitCapacity(payload, deps),
};

export const createHandler = (dependencies: PortSource) => pipelineHandler('steps', tasks, dependencies);

// Prepare checks a job's inputs, a stock avatar among them (read from the catalogue; its portrait is the render function's to draw).
export const handler = createHandler(withParts(lambdaDependencies, (base) => ({ stockAvatars: new BlobStockAvatars(base.blobs) })));
