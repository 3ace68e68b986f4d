import type { DynamoDBBatchResponse } from 'aws-lambda';
import { insertedJobsOf } from '#adapters/dynamodb/stream-records';
import { startIfNeverStarted } from '#pipeline/start-written';
import type { NeedsOf, PortSource, Ports } from '#ports/ports';
import { logger, withLambdaContext } from '#functions/logger';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';

/**
 * Runs on the table's stream when a job is written (lib/cloud/job-pipeline.ts) and starts it unless a
 * step of it already ran. The API starts every job it writes; this catches the one whose API process
 * died in between, within seconds instead of at the sweeper's next pass. Most runs find the execution
 * already started (its name is the job's, so a second start is a no-op). A record whose start failed
 * is handed back for Lambda to retry; one that names no job is dropped.
 */
export const createHandler = (ports: PortSource<NeedsOf<typeof startIfNeverStarted> & Pick<Ports, 'jobRunner'>>) => async (event: unknown): Promise<DynamoDBBatchResponse> => {
  const deps = ports();
  const failures: DynamoDBBatchResponse['batchItemFailures'] = [];
  for (const { sequenceNumber, job } of insertedJobsOf(event)) {
    try {
      await startIfNeverStarted(deps, deps.jobRunner, job);
    } catch (error) {
      logger.warn('could not start a written job; Lambda retries its record', { ...job, error });
      // Lambda retries from the first failed record on: the ones after it are not reported as done.
      failures.push({ itemIdentifier: sequenceNumber });
      break;
    }
  }
  return { batchItemFailures: failures };
};

export const handler = withLambdaContext(createHandler(lambdaPorts(({ common, table }) => ({ ...common, ...dynamoStores(table()) }))));
