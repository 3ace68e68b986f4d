import { endedExecutionOf, failEndedExecution } from '#pipeline/execution-ended';
import type { NeedsOf, PortSource } from '#ports/ports';
import { logger, withLambdaContext } from '#functions/logger';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';

/**
 * Target of the EventBridge rule on job executions that end FAILED, TIMED_OUT or ABORTED
 * (lib/cloud/job-pipeline.ts): fails their job (status failed, reserved units released) unless it is
 * already final. An event that names no job is logged and dropped: there is nothing to fail.
 */
export const createHandler = (ports: PortSource<NeedsOf<typeof failEndedExecution>>) => async (event: unknown) => {
  const ended = endedExecutionOf(event);
  if (!ended) {
    logger.warn('execution status event without a job; ignored');
    return { failed: false };
  }
  await failEndedExecution(ports(), ended);
  logger.info('ended execution handled', { jobId: ended.job_id, status: ended.status });
  return { failed: true };
};

export const handler = withLambdaContext(createHandler(lambdaPorts(({ common, table }) => ({ ...common, ...dynamoStores(table()) }))));
