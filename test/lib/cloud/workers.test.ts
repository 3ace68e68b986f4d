/**
 * The background workers: each gets the on-failure destination that keeps a task that failed for good
 * (an encrypted, TLS-only queue keeping messages 14 days), and Lambda gives up on an event before the
 * sweeper's deadline for the record it left processing.
 */
import { WORKER_ASYNC, WORKERS, type WorkerName } from '#cloud/workers';
import { PROCESSING_DEADLINE_MS } from '#pipeline/stuck-processing';
import { actionsOf, referencedIds, resourcesOfType, roleStatements, synthesisedStack, type Statement } from '#test-support/cdk-template';
import { WORKER_FUNCTION_SIZES } from '#cloud/function-sizes';

const NAMES = Object.keys(WORKERS) as WorkerName[];

const { resources, ids } = synthesisedStack();
const queueId = () => ids.workers.failedInvocations;

describe('the workers', () => {
  test.each(NAMES)('%s sends a task that failed after its retries to the on-failure queue', (name) => {
    const fn = ids.workers.functions[name];
    const configs = resourcesOfType(resources, 'AWS::Lambda::EventInvokeConfig').filter(([, c]) => referencedIds(c.Properties.FunctionName).includes(fn));
    expect(configs).toHaveLength(1);
    const props = configs[0]![1].Properties;
    expect(props).toMatchObject({ MaximumRetryAttempts: WORKER_ASYNC.retryAttempts, MaximumEventAgeInSeconds: WORKER_ASYNC.maxEventAgeS });
    expect(referencedIds(props.DestinationConfig.OnFailure.Destination)).toEqual([queueId()]);
    // The function's role may send there.
    const sends = roleStatements(resources, fn).filter((s) => actionsOf(s).includes('sqs:SendMessage'));
    expect(sends.flatMap((s) => referencedIds(s.Resource))).toContain(queueId());
  });

  test('the on-failure queue is encrypted, keeps messages 14 days and refuses plain HTTP', () => {
    expect(resources[queueId()]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    const statements = resourcesOfType(resources, 'AWS::SQS::QueuePolicy')
      .filter(([, p]) => referencedIds(p.Properties.Queues).includes(queueId()))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
    expect(statements).toEqual(expect.arrayContaining([expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]));
  });

  test("Lambda is done with a worker's event (its age limit, then one last attempt) before the sweeper fails the record it left processing", () => {
    for (const name of NAMES) {
      const doneS = WORKER_ASYNC.maxEventAgeS + WORKER_FUNCTION_SIZES[name].timeoutS;
      expect({ name, before: doneS * 1000 < PROCESSING_DEADLINE_MS }).toEqual({ name, before: true });
    }
  });
});
