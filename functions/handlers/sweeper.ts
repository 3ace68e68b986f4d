import type { Context } from 'aws-lambda';
import { failStuckProcessing } from '#pipeline/stuck-processing';
import { sweepStrandedWork } from '#pipeline/sweeper';
import type { NeedsOf, PortSource, Ports } from '#ports/ports';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';
import { withLambdaContext } from '#functions/logger';

/** Kept from the sweep's budget for the stuck demos and avatars (a handful) and for answering. */
const STUCK_PROCESSING_MARGIN_MS = 60 * 1000;

/**
 * Runs on a schedule (lib/cloud/job-pipeline.ts): stranded units, jobs written but never started, and
 * demos and avatars stuck in processing (pipeline/stuck-processing.ts). The sweep stops on the time the
 * invocation has left, so the function is never cut off inside a write.
 */
export const createHandler = (ports: PortSource<NeedsOf<typeof sweepStrandedWork> & NeedsOf<typeof failStuckProcessing> & Pick<Ports, 'jobRunner'>>) => async (_scheduledEvent?: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>) => {
  const deps = ports();
  const timeLeft = context ? { timeLeftMs: () => context.getRemainingTimeInMillis() - STUCK_PROCESSING_MARGIN_MS } : {};
  return { ...(await sweepStrandedWork(deps, { runner: deps.jobRunner, ...timeLeft })), ...(await failStuckProcessing(deps)) };
};

export const handler = withLambdaContext(createHandler(lambdaPorts(({ common, table }) => ({ ...common, ...dynamoStores(table()) }))));
