/**
 * Webhook delivery on AWS: the dispatcher woken by new outbox events on the table's stream and by a
 * one-minute schedule, allowed to queue deliveries; the delivery function fed by that queue, whose
 * messages end in a dead-letter queue after five tries; and nothing beyond what each needs.
 */
import { WEBHOOK_MAX_RECEIVES, WEBHOOK_SWEEP_MINUTES } from '#cloud/webhooks';
import { WEBHOOK_LIMITS } from '#domain/webhooks';
import { actionsOf, referencedIds, resourcesOfType, roleStatements, synthesisedStack, type Resource } from '#test-support/cdk-template';
import { WEBHOOK_FUNCTION_SIZES } from '#cloud/function-sizes';

const { resources, ids } = synthesisedStack();
const { dispatcher, deliverer, queue, failedDeliveries, failedStreamBatches } = ids.webhooks;

const mappingsOf = (fn: string) =>
  resourcesOfType(resources, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => referencedIds(m.Properties.FunctionName).includes(fn));
const statementsOf = (fn: string) => roleStatements(resources, fn);

describe('the dispatcher', () => {
  test("is woken by the table's stream for new outbox events only, with a dead-letter queue for batches it keeps failing", () => {
    const [[, mapping]] = mappingsOf(dispatcher) as [[string, Resource]];
    expect(mapping.Properties).toMatchObject({ StartingPosition: 'LATEST', MaximumRetryAttempts: 3 });
    const pattern = JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern);
    expect(pattern).toEqual({ eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: 'WHEVENT#' }] } } } });
    expect(referencedIds(mapping.Properties.DestinationConfig.OnFailure.Destination)).toEqual([failedStreamBatches]);
  });

  test(`runs every ${WEBHOOK_SWEEP_MINUTES} minute and may queue deliveries, whose queue it is told`, () => {
    const rules = resourcesOfType(resources, 'AWS::Events::Rule').filter(([, r]) => referencedIds(r.Properties.Targets).includes(dispatcher));
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties.ScheduleExpression).toBe(`rate(${WEBHOOK_SWEEP_MINUTES} minute)`);
    const sends = statementsOf(dispatcher).filter((s) => actionsOf(s).includes('sqs:SendMessage'));
    // The delivery queue, and the stream's dead-letter queue (Lambda sends a failed batch's record there as the function).
    expect(sends.flatMap((s) => referencedIds(s.Resource)).sort()).toEqual([queue, failedStreamBatches].sort());
    expect(referencedIds(resources[dispatcher]!.Properties.Environment.Variables.WEBHOOK_QUEUE_URL)).toEqual([queue]);
  });
});

describe('the delivery function', () => {
  test('takes batches from the queue and reports failed messages one by one', () => {
    const [[, mapping]] = mappingsOf(deliverer) as [[string, Resource]];
    expect(referencedIds(mapping.Properties.EventSourceArn)).toEqual([queue]);
    expect(mapping.Properties).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  test(`a message that fails ${WEBHOOK_MAX_RECEIVES} times goes to the dead-letter queue; none is delivered twice at once`, () => {
    const props = resources[queue]!.Properties;
    expect(props.RedrivePolicy).toEqual({ deadLetterTargetArn: expect.anything(), maxReceiveCount: WEBHOOK_MAX_RECEIVES });
    expect(referencedIds(props.RedrivePolicy.deadLetterTargetArn)).toEqual([failedDeliveries]);
    expect(props.SqsManagedSseEnabled).toBe(true);
    // The queue hides a message longer than the function may run, which is longer than one attempt's timeout.
    expect(props.VisibilityTimeout).toBeGreaterThanOrEqual(WEBHOOK_FUNCTION_SIZES.deliver.timeoutS);
    expect(WEBHOOK_FUNCTION_SIZES.deliver.timeoutS * 1000).toBeGreaterThan(WEBHOOK_LIMITS.timeoutMs);
  });

  test('reaches the table but not the bucket', () => {
    const actions = statementsOf(deliverer).flatMap(actionsOf);
    expect(actions.some((a) => a.startsWith('dynamodb:'))).toBe(true);
    expect(actions.some((a) => a.startsWith('s3:'))).toBe(false);
  });
});
