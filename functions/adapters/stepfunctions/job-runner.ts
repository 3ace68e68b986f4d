import {
  ExecutionAlreadyExists,
  InvalidToken,
  SFNClient,
  SendTaskSuccessCommand,
  StartExecutionCommand,
  TaskDoesNotExist,
  TaskTimedOut,
} from '@aws-sdk/client-sfn';
import { requiredEnv } from '#functions/config';
import { TaskTokenInvalid, type JobRunner } from '#ports/job-runner';

/** Execution names are unique per state machine for 90 days: one execution per job, ever. */
const executionName = (accountId: number, jobId: number) => `job-${accountId}-${jobId}`;

export function stepFunctionsJobRunner(client = new SFNClient({})): JobRunner {
  return {
    async start(input) {
      try {
        await client.send(
          new StartExecutionCommand({
            stateMachineArn: requiredEnv('JOB_STATE_MACHINE_ARN'),
            name: executionName(input.account_id, input.job_id),
            input: JSON.stringify(input),
          }),
        );
      } catch (error) {
        // Same name and same input is already idempotent on the service side; this covers a retry
        // after the first call succeeded but its answer was lost.
        if (error instanceof ExecutionAlreadyExists) return;
        throw error;
      }
    },
    async sendDecision(taskToken, decision) {
      try {
        await client.send(new SendTaskSuccessCommand({ taskToken, output: JSON.stringify(decision) }));
      } catch (error) {
        if (error instanceof InvalidToken || error instanceof TaskDoesNotExist || error instanceof TaskTimedOut) {
          throw new TaskTokenInvalid();
        }
        throw error;
      }
    },
  };
}
