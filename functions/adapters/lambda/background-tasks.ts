import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { requiredEnv } from '#functions/config';
import type { BackgroundTask, BackgroundTasks } from '#ports/background-tasks';

/** Which worker function runs each task type; the stack passes the names in. */
const FUNCTION_ENV: Record<BackgroundTask['type'], string> = {
  'normalise-demo': 'NORMALISE_FUNCTION_NAME',
  'generate-avatar': 'GENERATE_AVATAR_FUNCTION_NAME',
  'sample-demo': 'SAMPLE_DEMO_FUNCTION_NAME',
};

export function lambdaBackgroundTasks(client = new LambdaClient({})): BackgroundTasks {
  return {
    async dispatch(task) {
      await client.send(
        new InvokeCommand({
          FunctionName: requiredEnv(FUNCTION_ENV[task.type]),
          InvocationType: 'Event',
          Payload: Buffer.from(JSON.stringify(task)),
        }),
      );
    },
  };
}
