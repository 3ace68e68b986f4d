/**
 * The alarms and the dashboard, built over stand-ins of the API, the state machine and a failure
 * queue (no function is bundled), read from the template as an operator would meet them.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { ALARM_THRESHOLDS, alarmEmailFromContext, Observability } from '#cloud/observability';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#domain/metrics';
import { CAPACITY_THRESHOLDS } from '#cloud/capacity-alarms';
import { DEFAULT_MONTHLY_BUDGET_USD, monthlyBudgetFromContext } from '#cloud/cost-budget';
import type { Json } from '#test-support/cdk-template';

const RENDER_TIMEOUT_S = 900;

function build(alarmEmail?: string) {
  const stack = new Stack(new App(), 'ObservabilityTest');
  const httpApi = new HttpApi(stack, 'HttpApi');
  const stateMachine = new sfn.StateMachine(stack, 'StateMachine', { definitionBody: sfn.DefinitionBody.fromChainable(new sfn.Pass(stack, 'Pass')) });
  const queue = new sqs.Queue(stack, 'Failures');
  const deliveries = new sqs.Queue(stack, 'Deliveries');
  const table = new dynamodb.Table(stack, 'Table', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
  const render = new lambda.Function(stack, 'Render', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler = async () => {}') });
  const observability = new Observability(stack, 'Observability', {
    httpApi,
    stateMachine,
    failureQueues: { WorkerFailures: queue },
    alarmEmail,
    capacity: { table, render: { fn: render, timeoutS: RENDER_TIMEOUT_S }, workQueues: { WebhookDeliveries: deliveries } },
    monthlyBudgetUsd: 250,
  });
  const template = Template.fromStack(stack);
  const id = (c: { node: { defaultChild?: unknown } }) => stack.getLogicalId(c.node.defaultChild as never);
  return {
    stack,
    template,
    observability,
    ids: { api: id(httpApi), stateMachine: id(stateMachine), queue: id(queue), deliveries: id(deliveries), table: id(table), render: id(render) },
  };
}

const built = build();
const alarmProps = (name: string): Json => {
  const alarm = built.observability.alarms[name];
  expect(alarm).toBeDefined();
  return built.template.toJSON().Resources[built.stack.getLogicalId(alarm!.node.defaultChild as never)].Properties;
};
const metricsOf = (props: Json): Json[] => (props.Metrics as Json[]).filter((m) => m.MetricStat).map((m) => m.MetricStat.Metric);

describe('alarms', () => {
  test('there is one per condition and one per failure queue, none of them firing on missing data', () => {
    expect(Object.keys(built.observability.alarms).sort()).toEqual(
      ['WebhookDeliveriesAge', 'WorkerFailuresDepth', 'api5xx', 'apiP99', 'concurrency', 'dynamoThrottles', 'failedExecutions', 'failedJobs', 'renderNearTimeout', 'throttles'].sort(),
    );
    for (const name of Object.keys(built.observability.alarms)) {
      const props = alarmProps(name);
      expect(props.TreatMissingData).toBe('notBreaching');
      expect(props.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
      expect(props.AlarmDescription).toMatch(/docs\/aws\.md/);
    }
  });

  test('API 5xx: the percent of 5xx answers of this API, once enough requests came, two periods running', () => {
    const props = alarmProps('api5xx');
    expect(props.Threshold).toBe(ALARM_THRESHOLDS.api5xxPercent);
    expect(props.EvaluationPeriods).toBe(2);
    const expression = (props.Metrics as Json[]).find((m) => m.Expression);
    expect(expression.Expression).toBe(`IF(requests >= ${ALARM_THRESHOLDS.apiMinRequests}, 100 * errors / requests, 0)`);
    const inputs = metricsOf(props);
    expect(inputs.map((m) => m.MetricName).sort()).toEqual(['5xx', 'Count']);
    for (const m of inputs) expect(m.Dimensions).toEqual([{ Name: 'ApiId', Value: { Ref: built.ids.api } }]);
  });

  test('failed jobs: the JobsFailed metric the functions emit, by service, summed over 15 minutes', () => {
    const props = alarmProps('failedJobs');
    expect(props).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      MetricName: 'JobsFailed',
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      Statistic: 'Sum',
      Period: 900,
      Threshold: ALARM_THRESHOLDS.failedJobs,
    });
  });

  test('failed executions: failed and timed-out executions of the job state machine', () => {
    const props = alarmProps('failedExecutions');
    const inputs = metricsOf(props);
    expect(inputs.map((m) => m.MetricName).sort()).toEqual(['ExecutionsFailed', 'ExecutionsTimedOut']);
    for (const m of inputs) expect(m.Dimensions).toEqual([{ Name: 'StateMachineArn', Value: { Ref: built.ids.stateMachine } }]);
  });

  test('throttles: any throttled Lambda invocation in the account', () => {
    expect(alarmProps('throttles')).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles', Threshold: 1 });
    expect(alarmProps('throttles').Dimensions).toBeUndefined();
  });

  test('a failure queue: any message waiting in it', () => {
    expect(alarmProps('WorkerFailuresDepth')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [built.ids.queue, 'QueueName'] } }],
      Statistic: 'Maximum',
      Threshold: 1,
    });
  });
});

describe('capacity alarms: warnings while there is still time to act', () => {
  test("a render call that ran 80 % of its timeout: the render function's longest Duration in 5 minutes", () => {
    expect(alarmProps('renderNearTimeout')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Duration',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: built.ids.render } }],
      Statistic: 'Maximum',
      Threshold: RENDER_TIMEOUT_S * 1000 * 0.8,
    });
  });

  test('API p99 latency, three periods running', () => {
    expect(alarmProps('apiP99')).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      ExtendedStatistic: 'p99',
      Threshold: CAPACITY_THRESHOLDS.apiP99Ms,
      EvaluationPeriods: 3,
    });
  });

  test("DynamoDB: the table's throttled reads and writes together", () => {
    const props = alarmProps('dynamoThrottles');
    expect((props.Metrics as Json[]).find((m) => m.Expression).Expression).toBe('reads + writes');
    const inputs = metricsOf(props);
    expect(inputs.map((m) => m.MetricName).sort()).toEqual(['ReadThrottleEvents', 'WriteThrottleEvents']);
    for (const m of inputs) expect(m.Dimensions).toEqual([{ Name: 'TableName', Value: { Ref: built.ids.table } }]);
  });

  test("Lambda concurrency: the account's claimed concurrency against its quota from Service Quotas, at 80 %", () => {
    const props = alarmProps('concurrency');
    expect(props.Threshold).toBe(CAPACITY_THRESHOLDS.concurrencyPercent);
    expect((props.Metrics as Json[]).find((m) => m.Expression).Expression).toBe('100 * claimed / SERVICE_QUOTA(usage)');
    const inputs = metricsOf(props);
    expect(inputs).toContainEqual({ Namespace: 'AWS/Lambda', MetricName: 'ClaimedAccountConcurrency' });
    expect(inputs).toContainEqual({
      Namespace: 'AWS/Usage',
      MetricName: 'ResourceCount',
      Dimensions: expect.arrayContaining([
        { Name: 'Service', Value: 'Lambda' },
        { Name: 'Type', Value: 'Resource' },
        { Name: 'Resource', Value: 'ConcurrentExecutions' },
        { Name: 'Class', Value: 'None' },
      ]),
    });
  });

  test('a work queue: its oldest message waiting 15 minutes', () => {
    expect(alarmProps('WebhookDeliveriesAge')).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [built.ids.deliveries, 'QueueName'] } }],
      Threshold: CAPACITY_THRESHOLDS.queueAgeS,
    });
  });
});

describe('the monthly cost budget', () => {
  const topicRef = () => ({ Ref: built.stack.getLogicalId(built.observability.alarmTopic.node.defaultChild as never) });

  test('is the amount given, told to the alarm topic at 80 % spent and when the month is forecast past it', () => {
    built.template.hasResourceProperties('AWS::Budgets::Budget', {
      Budget: { BudgetType: 'COST', TimeUnit: 'MONTHLY', BudgetLimit: { Amount: 250, Unit: 'USD' } },
      NotificationsWithSubscribers: [
        { Notification: { NotificationType: 'ACTUAL', ComparisonOperator: 'GREATER_THAN', Threshold: 80, ThresholdType: 'PERCENTAGE' }, Subscribers: [{ SubscriptionType: 'SNS', Address: topicRef() }] },
        { Notification: { NotificationType: 'FORECASTED', ComparisonOperator: 'GREATER_THAN', Threshold: 100, ThresholdType: 'PERCENTAGE' }, Subscribers: [{ SubscriptionType: 'SNS', Address: topicRef() }] },
      ],
    });
  });

  test('AWS Budgets may publish to the encrypted topic: the topic policy and the key allow it', () => {
    const policies = Object.values(built.template.findResources('AWS::SNS::TopicPolicy')) as Json[];
    expect(policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Json[])).toContainEqual(
      expect.objectContaining({ Principal: { Service: 'budgets.amazonaws.com' }, Action: 'sns:Publish' }),
    );
    const keys = Object.values(built.template.findResources('AWS::KMS::Key')) as Json[];
    const statements = keys.flatMap((key) => key.Properties.KeyPolicy.Statement as Json[]);
    expect(statements).toContainEqual(
      expect.objectContaining({ Principal: { Service: expect.arrayContaining(['budgets.amazonaws.com', 'cloudwatch.amazonaws.com']) } }),
    );
  });

  test('context monthlyBudgetUsd is a positive amount; unset is the default', () => {
    const withContext = (monthlyBudgetUsd: unknown) => monthlyBudgetFromContext(new Stack(new App({ context: monthlyBudgetUsd === undefined ? {} : { monthlyBudgetUsd } }), 'S'));
    expect(withContext(undefined)).toBe(DEFAULT_MONTHLY_BUDGET_USD);
    expect(withContext('40')).toBe(40);
    expect(withContext(1000)).toBe(1000);
    for (const bad of ['0', '-5', 'lots']) expect(() => withContext(bad)).toThrow('context monthlyBudgetUsd must be a positive number');
  });
});

describe('the dashboard', () => {
  const body = (): string => JSON.stringify(built.template.findResources('AWS::CloudWatch::Dashboard'));

  test('is one dashboard', () => {
    built.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  test('shows every business metric, the split ones by their dimension', () => {
    const text = body();
    for (const name of ['JobsStarted', 'JobsDone', 'JobsFailed', 'UnitsCharged']) expect(text).toContain(name);
    expect(text).toContain(`SEARCH('{${METRICS_NAMESPACE},error_code,service} MetricName=\\\\\\"JobsFailed\\\\\\"'`);
    expect(text).toContain('{ReactionStudio,step,service} MetricName=');
    expect(text).toContain('{ReactionStudio,reason,service} MetricName=');
  });
});

describe('the alarm topic', () => {
  const topicId = () => built.stack.getLogicalId(built.observability.alarmTopic.node.defaultChild as never);

  test('every alarm notifies it when it fires and when it clears', () => {
    for (const name of Object.keys(built.observability.alarms)) {
      const props = alarmProps(name);
      expect(props.AlarmActions).toEqual([{ Ref: topicId() }]);
      expect(props.OKActions).toEqual([{ Ref: topicId() }]);
    }
  });

  test('is encrypted with its own rotating key, which CloudWatch may use to publish', () => {
    const resources = built.template.toJSON().Resources as Record<string, Json>;
    const topic = resources[topicId()].Properties;
    const keyId = topic.KmsMasterKeyId['Fn::GetAtt'][0] as string;
    expect(resources[keyId].Properties.EnableKeyRotation).toBe(true);
    const statements = resources[keyId].Properties.KeyPolicy.Statement as Json[];
    expect(statements).toContainEqual(
      expect.objectContaining({ Principal: { Service: expect.arrayContaining(['cloudwatch.amazonaws.com']) }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] }),
    );
  });

  test('mails the address given as alarmEmail, and nobody without one', () => {
    built.template.resourceCountIs('AWS::SNS::Subscription', 0);
    Template.fromStack(build('ops@example.com').stack).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
  });

  test('context alarmEmail must be an address', () => {
    const withContext = (alarmEmail: unknown) => alarmEmailFromContext(new Stack(new App({ context: { alarmEmail } }), 'S'));
    expect(withContext('ops@example.com')).toBe('ops@example.com');
    expect(withContext('')).toBeUndefined();
    expect(() => withContext('not an address')).toThrow('context alarmEmail must be an email address');
  });
});
