/**
 * What an operator watches: the alarms that say something is wrong (docs/aws.md says what each means
 * and what to do) and one dashboard of the API, the jobs, the render steps and the failure queues. The
 * business metrics come from the functions (functions/domain/metrics.ts, Embedded Metric Format).
 *
 * Every alarm notifies one SNS topic when it fires and when it clears; `cdk deploy -c alarmEmail=...`
 * subscribes an address (confirmed from the mail AWS sends), and anything else can subscribe later.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as budgets from 'aws-cdk-lib/aws-budgets';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cloudwatchActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { capacityAlarms, type CapacityAlarmSources } from './capacity-alarms';
import { costBudget } from './cost-budget';
import { METRIC_SHAPES, METRICS_NAMESPACE, SERVICE_NAME, type MetricName } from '#domain/metrics';

export interface ObservabilityProps {
  httpApi: HttpApi;
  stateMachine: sfn.IStateMachine;
  /** Queues where invocations that failed for good wait for an operator (the workers' on-failure destination, ...). */
  failureQueues: Readonly<Record<string, sqs.IQueue>>;
  /** An address the alarm topic mails (CDK context `alarmEmail`). */
  alarmEmail?: string;
  /** What the capacity alarms watch (capacity-alarms.ts). */
  capacity: Omit<CapacityAlarmSources, 'httpApi'>;
  /** The account's monthly cost budget in USD (CDK context `monthlyBudgetUsd`). */
  monthlyBudgetUsd: number;
}

/** The thresholds, in one place: docs/aws.md explains them. */
export const ALARM_THRESHOLDS = {
  /** Percent of API requests answered 5xx over 5 minutes, once at least MIN_REQUESTS came in. */
  api5xxPercent: 5,
  apiMinRequests: 20,
  /** Jobs that ended failed in 15 minutes (a few fail for their input; a burst means a broken engine or step). */
  failedJobs: 5,
  /** Failed or timed-out executions in 15 minutes (every failed job ends its execution in JobFailed too). */
  failedExecutions: 5,
} as const;

const FIVE_MINUTES = Duration.minutes(5);
const FIFTEEN_MINUTES = Duration.minutes(15);

/** A metric the functions emit, by `service` alone (every event is also written so, for alarms). */
function serviceMetric(name: MetricName, options: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { service: SERVICE_NAME },
    statistic: METRIC_SHAPES[name].unit === 'Count' ? 'Sum' : 'Average',
    period: FIVE_MINUTES,
    ...options,
  });
}

/** Every series of a metric split by its own dimension (error code, step, reason), as the dashboard shows them. */
function splitMetric(name: MetricName, statistic: string, label: string): cloudwatch.MathExpression {
  const dimension = METRIC_SHAPES[name].dimension;
  if (!dimension) throw new Error(`${name} has no dimension to split by`);
  return new cloudwatch.MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},${dimension},service} MetricName="${name}"', '${statistic}', 300)`,
    label,
    period: FIVE_MINUTES,
  });
}

export class Observability extends Construct {
  /**
   * By name: api5xx, failedJobs, failedExecutions, throttles, the capacity alarms (renderNearTimeout,
   * apiP99, dynamoThrottles, concurrency, `<queue>Age` per work queue) and `<queue>Depth` per failure queue.
   */
  readonly alarms: Record<string, cloudwatch.Alarm>;
  readonly dashboard: cloudwatch.Dashboard;
  /** Where every alarm's state changes go, and the cost budget's alerts. */
  readonly alarmTopic: sns.Topic;
  readonly budget: budgets.CfnBudget;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    const { httpApi, stateMachine } = props;
    const stackName = Stack.of(this).stackName;

    const requests = httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const api5xxRate = new cloudwatch.MathExpression({
      // A handful of requests with one 5xx is not an outage: below the minimum the rate reads 0.
      expression: `IF(requests >= ${ALARM_THRESHOLDS.apiMinRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: serverErrors },
      label: 'API 5xx (%)',
      period: FIVE_MINUTES,
    });
    const failedExecutions = new cloudwatch.MathExpression({
      expression: 'failed + timedOut',
      usingMetrics: {
        failed: stateMachine.metricFailed({ period: FIFTEEN_MINUTES, statistic: 'Sum' }),
        timedOut: stateMachine.metricTimedOut({ period: FIFTEEN_MINUTES, statistic: 'Sum' }),
      },
      label: 'failed + timed-out executions',
      period: FIFTEEN_MINUTES,
    });

    const alarm = (alarmId: string, description: string, metric: cloudwatch.IMetric, threshold: number, evaluationPeriods = 1) =>
      new cloudwatch.Alarm(this, alarmId, {
        alarmName: `${stackName}-${alarmId}`,
        alarmDescription: `${description} (docs/aws.md, Observability)`,
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // No data is no traffic, not a failure.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });

    this.alarms = {
      api5xx: alarm(
        'Api5xxRate',
        `At least ${ALARM_THRESHOLDS.api5xxPercent}% of API requests answered 5xx in two 5-minute periods running`,
        api5xxRate,
        ALARM_THRESHOLDS.api5xxPercent,
        2,
      ),
      failedJobs: alarm(
        'FailedJobs',
        `At least ${ALARM_THRESHOLDS.failedJobs} video jobs ended failed in 15 minutes`,
        serviceMetric('JobsFailed', { period: FIFTEEN_MINUTES }),
        ALARM_THRESHOLDS.failedJobs,
      ),
      failedExecutions: alarm(
        'FailedExecutions',
        `At least ${ALARM_THRESHOLDS.failedExecutions} job executions failed or timed out in 15 minutes`,
        failedExecutions,
        ALARM_THRESHOLDS.failedExecutions,
      ),
      throttles: alarm(
        'LambdaThrottles',
        "Lambda throttled invocations in this account and region (the account's concurrency is used up)",
        lambda.Function.metricAllThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        1,
      ),
    };
    Object.assign(this.alarms, capacityAlarms({ httpApi, ...props.capacity }, alarm));
    for (const [name, queue] of Object.entries(props.failureQueues)) {
      this.alarms[`${name}Depth`] = alarm(
        `${name}Depth`,
        `Invocations failed for good are waiting in ${name}: read them, fix the cause, then redrive or drop them`,
        queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        1,
      );
    }

    this.alarmTopic = alarmTopic(this, props.alarmEmail);
    this.budget = costBudget(this, this.alarmTopic, props.monthlyBudgetUsd);
    const notify = new cloudwatchActions.SnsAction(this.alarmTopic);
    for (const each of Object.values(this.alarms)) {
      each.addAlarmAction(notify);
      each.addOkAction(notify);
    }

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${stackName}-overview`,
      defaultInterval: Duration.hours(24),
    });
    const graph = (title: string, left: cloudwatch.IMetric[], width = 8) => new cloudwatch.GraphWidget({ title, left, width, height: 6 });
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: Object.values(this.alarms), width: 24, height: 3 }),
    );
    this.dashboard.addWidgets(
      graph('API requests and errors', [requests, httpApi.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' }), serverErrors]),
      graph('API 5xx rate', [api5xxRate]),
      graph('API latency (p50, p99)', [httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }), httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' })]),
    );
    this.dashboard.addWidgets(
      graph('Jobs started, done, failed', [serviceMetric('JobsStarted'), serviceMetric('JobsDone'), serviceMetric('JobsFailed')]),
      graph('Failed jobs by error code', [splitMetric('JobsFailed', 'Sum', 'failed')]),
      graph('Allowance units charged', [serviceMetric('UnitsCharged')]),
    );
    this.dashboard.addWidgets(
      graph('Render seconds per step (average)', [splitMetric('RenderSeconds', 'Average', 'seconds')]),
      graph('Uploads refused by reason', [splitMetric('UploadsRefused', 'Sum', 'refused')]),
      graph('Job executions', [
        stateMachine.metricStarted({ period: FIVE_MINUTES, statistic: 'Sum' }),
        stateMachine.metricSucceeded({ period: FIVE_MINUTES, statistic: 'Sum' }),
        stateMachine.metricFailed({ period: FIVE_MINUTES, statistic: 'Sum' }),
        stateMachine.metricTimedOut({ period: FIVE_MINUTES, statistic: 'Sum' }),
      ]),
    );
    this.dashboard.addWidgets(
      graph(
        'Failure queues (messages waiting)',
        Object.entries(props.failureQueues).map(([name, queue]) => queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum', label: name })),
        12,
      ),
      graph('Lambda throttles and errors (all functions)', [lambda.Function.metricAllThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }), lambda.Function.metricAllErrors({ period: FIVE_MINUTES, statistic: 'Sum' })], 12),
    );
  }
}

/** An encrypted topic CloudWatch alarms may publish to (the key lets CloudWatch encrypt for it, nothing more). */
function alarmTopic(scope: Construct, email: string | undefined): sns.Topic {
  // Nothing stored under it outlives the topic: it goes with the stack.
  const key = new kms.Key(scope, 'AlarmTopicKey', {
    description: 'encrypts the alarm topic',
    enableKeyRotation: true,
    removalPolicy: RemovalPolicy.DESTROY,
    pendingWindow: Duration.days(7),
  });
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com'), new iam.ServicePrincipal('budgets.amazonaws.com')],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
    }),
  );
  const topic = new sns.Topic(scope, 'AlarmTopic', { displayName: 'Reaction Studio alarms', masterKey: key, enforceSSL: true });
  if (email) topic.addSubscription(new subscriptions.EmailSubscription(email));
  return topic;
}

/** CDK context `alarmEmail`: unset or empty is no subscription; anything but an address fails the synth. */
export function alarmEmailFromContext(scope: Construct): string | undefined {
  const raw: unknown = scope.node.tryGetContext('alarmEmail');
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(raw)) throw new Error(`context alarmEmail must be an email address, not ${JSON.stringify(raw)}`);
  return raw;
}
