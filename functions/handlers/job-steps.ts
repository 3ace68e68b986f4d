import { pipelineHandler, type PipelinePorts } from '#pipeline/run-step';
import type { StepPayload, TasksOf } from '#pipeline/steps';
import { prepare } from '#pipeline/tasks/prepare';
import { chargePreview } from '#pipeline/tasks/charge-preview';
import { awaitDecision } from '#pipeline/tasks/await-decision';
import { awaitProvider } from '#pipeline/tasks/await-provider';
import { finalize } from '#pipeline/tasks/finalize';
import { markFailed } from '#pipeline/tasks/mark-failed';
import { awaitCapacity } from '#pipeline/tasks/await-capacity';
import type { PortSource } from '#ports/ports';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';

/** The bookkeeping steps (records, charges, the preview and provider waits, failures): no media code in this bundle. */
export const tasks = {
  prepare,
  charge_preview: chargePreview,
  await_decision: (payload: StepPayload, deps: Parameters<typeof awaitDecision>[1]) => awaitDecision(payload, deps),
  await_provider: (payload: StepPayload, deps: Parameters<typeof awaitProvider>[1]) => awaitProvider(payload, deps),
  finalize: (payload: StepPayload, deps: Parameters<typeof finalize>[1]) => finalize(payload, deps),
  mark_failed: markFailed,
  await_capacity: (payload: StepPayload, deps: Parameters<typeof awaitCapacity>[1]) => awaitCapacity(payload, deps),
} satisfies TasksOf<'steps'>;

export const createHandler = (ports: PortSource<PipelinePorts<typeof tasks>>) => pipelineHandler('steps', tasks, ports);

// Prepare checks a job's inputs, a stock avatar among them (read from the catalogue; its portrait is the render function's to draw).
export const handler = createHandler(lambdaPorts(({ common, table }) => ({ ...common, ...dynamoStores(table()), stockAvatars: new BlobStockAvatars(common.blobs) })));
