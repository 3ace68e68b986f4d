/**
 * The background workers on their own: each gets the on-failure destination that keeps a task that
 * failed for good (an encrypted, TLS-only queue keeping messages 14 days), and Lambda gives up on an
 * event before the sweeper's deadline for the record it left processing.
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
import { WORKER_ASYNC, WORKERS, Workers, type WorkerName } from '#cloud/workers';
import { PROCESSING_DEADLINE_MS } from '#pipeline/stuck-processing';
import { resourcesOfType, type Resource, type Statement, referencedIds } from '#test-support/cdk-template';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const NAMES = Object.keys(WORKERS) as WorkerName[];

let outdir: string;
let stack: Stack;
let workers: Workers;
let resources: Record<string, Resource>;

beforeAll(() => {
  const { context } = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { context: object };
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'reaction-studio-workers-'));
  stack = new Stack(new App({ context, outdir }), 'WorkersTest');
  workers = new Workers(stack, 'Workers', {
    table: new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } }),
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
const queueId = () => logicalId(workers.failedInvocations);


describe('the workers', () => {
  test.each(NAMES)('%s sends a task that failed after its retries to the on-failure queue', (name) => {
    const configs = resourcesOfType(resources, 'AWS::Lambda::EventInvokeConfig').filter(([, c]) => referencedIds(c.Properties.FunctionName).includes(logicalId(workers.functions[name])));
    expect(configs).toHaveLength(1);
    const props = configs[0]![1].Properties;
    expect(props).toMatchObject({ MaximumRetryAttempts: WORKER_ASYNC.retryAttempts, MaximumEventAgeInSeconds: WORKER_ASYNC.maxEventAgeS });
    expect(referencedIds(props.DestinationConfig.OnFailure.Destination)).toEqual([queueId()]);
    // The function's role may send there.
    const role = resources[logicalId(workers.functions[name])]!.Properties.Role['Fn::GetAtt'][0] as string;
    const sends = resourcesOfType(resources, 'AWS::IAM::Policy')
      .filter(([, p]) => referencedIds(p.Properties.Roles).includes(role))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[])
      .filter((s) => [s.Action].flat().includes('sqs:SendMessage'));
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
      const doneS = WORKER_ASYNC.maxEventAgeS + WORKERS[name].timeoutS;
      expect({ name, before: doneS * 1000 < PROCESSING_DEADLINE_MS }).toEqual({ name, before: true });
    }
  });
});
