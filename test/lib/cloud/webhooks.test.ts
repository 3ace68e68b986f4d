/**
 * Webhook delivery on AWS, on its own: the dispatcher woken by new outbox events on the table's stream
 * and by a one-minute schedule, allowed to queue deliveries; the delivery function fed by that queue,
 * whose messages end in a dead-letter queue after five tries; and nothing beyond what each needs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { DEFAULT_BEDROCK_HOOKS_MODEL } from '#cloud/engine-config';
import { WEBHOOK_FUNCTIONS, WEBHOOK_MAX_RECEIVES, WEBHOOK_SWEEP_MINUTES, Webhooks } from '#cloud/webhooks';
import { WEBHOOK_LIMITS } from '#domain/webhooks';
import { resourcesOfType, type Resource, type Statement, referencedIds } from '#test-support/cdk-template';

const ROOT = path.resolve(__dirname, '..', '..', '..');

let outdir: string;
let stack: Stack;
let webhooks: Webhooks;
let resources: Record<string, Resource>;

beforeAll(() => {
  const { context } = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { context: object };
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'reaction-studio-webhooks-'));
  stack = new Stack(new App({ context, outdir }), 'WebhooksTest');
  webhooks = new Webhooks(stack, 'Webhooks', {
    table: new dynamodb.Table(stack, 'Table', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      stream: dynamodb.StreamViewType.KEYS_ONLY,
    }),
    bucket: new s3.Bucket(stack, 'Bucket'),
    ffmpegLayer: lambda.LayerVersion.fromLayerVersionArn(stack, 'Ffmpeg', 'arn:aws:lambda:us-east-1:123456789012:layer:ffmpeg:1'),
    nativeLayer: lambda.LayerVersion.fromLayerVersionArn(stack, 'Native', 'arn:aws:lambda:us-east-1:123456789012:layer:native:1'),
    engines: { avatar: 'local', reaction: 'local', hooks: 'local', bedrockModelId: DEFAULT_BEDROCK_HOOKS_MODEL },
  });
  resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
}, 300_000);

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);


const mappingsOf = (fn: lambda.IFunction) =>
  resourcesOfType(resources, 'AWS::Lambda::EventSourceMapping').filter(([, m]) => referencedIds(m.Properties.FunctionName).includes(logicalId(fn)));

function statementsOf(fn: lambda.IFunction): Statement[] {
  const role = resources[logicalId(fn)]!.Properties.Role['Fn::GetAtt'][0] as string;
  return resourcesOfType(resources, 'AWS::IAM::Policy')
    .filter(([, p]) => referencedIds(p.Properties.Roles).includes(role))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}

describe('the dispatcher', () => {
  test("is woken by the table's stream for new outbox events only, with a dead-letter queue for batches it keeps failing", () => {
    const [[, mapping]] = mappingsOf(webhooks.dispatcher) as [[string, Resource]];
    expect(mapping.Properties).toMatchObject({ StartingPosition: 'LATEST', MaximumRetryAttempts: 3 });
    const pattern = JSON.parse(mapping.Properties.FilterCriteria.Filters[0].Pattern);
    expect(pattern).toEqual({ eventName: ['INSERT'], dynamodb: { Keys: { sk: { S: [{ prefix: 'WHEVENT#' }] } } } });
    expect(referencedIds(mapping.Properties.DestinationConfig.OnFailure.Destination)).toEqual([logicalId(webhooks.failedStreamBatches)]);
  });

  test(`runs every ${WEBHOOK_SWEEP_MINUTES} minute and may queue deliveries, whose queue it is told`, () => {
    const rules = resourcesOfType(resources, 'AWS::Events::Rule');
    expect(rules).toHaveLength(1);
    expect(rules[0]![1].Properties.ScheduleExpression).toBe(`rate(${WEBHOOK_SWEEP_MINUTES} minute)`);
    expect(referencedIds(rules[0]![1].Properties.Targets)).toContain(logicalId(webhooks.dispatcher));
    const sends = statementsOf(webhooks.dispatcher).filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
    // The delivery queue, and the stream's dead-letter queue (Lambda sends a failed batch's record there as the function).
    expect(sends.flatMap((s) => referencedIds(s.Resource)).sort()).toEqual([logicalId(webhooks.queue), logicalId(webhooks.failedStreamBatches)].sort());
    expect(referencedIds(resources[logicalId(webhooks.dispatcher)]!.Properties.Environment.Variables.WEBHOOK_QUEUE_URL)).toEqual([logicalId(webhooks.queue)]);
  });
});

describe('the delivery function', () => {
  test('takes batches from the queue and reports failed messages one by one', () => {
    const [[, mapping]] = mappingsOf(webhooks.deliverer) as [[string, Resource]];
    expect(referencedIds(mapping.Properties.EventSourceArn)).toEqual([logicalId(webhooks.queue)]);
    expect(mapping.Properties).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  test(`a message that fails ${WEBHOOK_MAX_RECEIVES} times goes to the dead-letter queue; none is delivered twice at once`, () => {
    const queue = resources[logicalId(webhooks.queue)]!.Properties;
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: expect.anything(), maxReceiveCount: WEBHOOK_MAX_RECEIVES });
    expect(referencedIds(queue.RedrivePolicy.deadLetterTargetArn)).toEqual([logicalId(webhooks.failedDeliveries)]);
    expect(queue.SqsManagedSseEnabled).toBe(true);
    // The queue hides a message longer than the function may run, which is longer than one attempt's timeout.
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(WEBHOOK_FUNCTIONS.deliver.timeoutS);
    expect(WEBHOOK_FUNCTIONS.deliver.timeoutS * 1000).toBeGreaterThan(WEBHOOK_LIMITS.timeoutMs);
  });

  test('reaches the table but not the bucket', () => {
    const actions = statementsOf(webhooks.deliverer).flatMap((s) => [s.Action].flat());
    expect(actions.some((a) => a.startsWith('dynamodb:'))).toBe(true);
    expect(actions.some((a) => a.startsWith('s3:'))).toBe(false);
  });
});
