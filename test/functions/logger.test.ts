/** Log lines of a Lambda entry carry the invocation's context; in process (no context) nothing is added. */
import type { Context } from 'aws-lambda';
import { logger, withLambdaContext } from '#functions/logger';

/** The JSON lines the logger writes while `run` runs, at INFO whatever the test run's level. */
async function linesOf(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const level = logger.getLevelName();
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  logger.setLogLevel('INFO');
  try {
    await run();
  } finally {
    logger.setLogLevel(level);
    spy.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

const context = { awsRequestId: 'req-1', functionName: 'render', functionVersion: '$LATEST', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:render', memoryLimitInMB: '3008' } as unknown as Context;

describe('withLambdaContext', () => {
  test('each line the handler logs names the function and the Lambda request id', async () => {
    const handler = withLambdaContext(async (event: { n: number }) => {
      logger.info('step done', { n: event.n });
      return event.n * 2;
    });
    let answer: number | undefined;
    const lines = await linesOf(async () => (answer = await handler({ n: 21 }, context)));
    expect(answer).toBe(42);
    expect(lines).toEqual([expect.objectContaining({ message: 'step done', n: 21, function_request_id: 'req-1', function_name: 'render' })]);
  });

  test('the event itself is not logged', async () => {
    const handler = withLambdaContext(async () => logger.info('waiting'));
    const lines = await linesOf(() => handler({ task_token: 'secret-token' }, context));
    expect(JSON.stringify(lines)).not.toContain('secret-token');
  });
});
