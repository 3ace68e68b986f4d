/**
 * The alarms that warn before capacity runs out, while there is still time to act: a render step close
 * to its timeout, API latency, DynamoDB throttling, the account's Lambda concurrency against its quota,
 * and work waiting too long in a queue. docs/aws.md (Observability) says what each means and what to do.
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';

export const CAPACITY_THRESHOLDS = {
  /** A render call's longest run in 5 minutes, as a share of its timeout: past it, a bigger input times out. */
  renderDurationPercent: 80,
  /** API p99 latency in ms, three 5-minute periods running (the handlers answer in tens of ms; 29 s is API Gateway's cap). */
  apiP99Ms: 3000,
  /** DynamoDB requests throttled in 5 minutes (on-demand tables throttle only past a partition's or the account's limit). */
  dynamoThrottles: 1,
  /** The account's claimed Lambda concurrency as a share of its quota: past it, bursts start to wait (docs/aws.md, Bursts). */
  concurrencyPercent: 80,
  /** Age of the oldest message in a work queue, in seconds: deliveries are sent within seconds when all is well. */
  queueAgeS: 15 * 60,
} as const;

export interface CapacityAlarmSources {
  httpApi: HttpApi;
  table: dynamodb.ITable;
  /** The render function and its timeout. */
  render: { fn: lambda.IFunction; timeoutS: number };
  /** Queues whose messages are work to be done soon (not failures kept for an operator). */
  workQueues: Readonly<Record<string, sqs.IQueue>>;
}

type AlarmMaker = (id: string, description: string, metric: cloudwatch.IMetric, threshold: number, evaluationPeriods?: number) => cloudwatch.Alarm;

const FIVE_MINUTES = Duration.minutes(5);

export function capacityAlarms(sources: CapacityAlarmSources, alarm: AlarmMaker): Record<string, cloudwatch.Alarm> {
  const { httpApi, table, render } = sources;
  const renderLimitMs = render.timeoutS * 1000;
  const alarms: Record<string, cloudwatch.Alarm> = {
    renderNearTimeout: alarm(
      'RenderNearTimeout',
      `A render call ran ${CAPACITY_THRESHOLDS.renderDurationPercent}% of its ${render.timeoutS} s timeout or longer`,
      render.fn.metricDuration({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      (renderLimitMs * CAPACITY_THRESHOLDS.renderDurationPercent) / 100,
    ),
    apiP99: alarm(
      'ApiLatencyP99',
      `API p99 latency at or over ${CAPACITY_THRESHOLDS.apiP99Ms} ms in three 5-minute periods running`,
      httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
      CAPACITY_THRESHOLDS.apiP99Ms,
      3,
    ),
    dynamoThrottles: alarm(
      'DynamoDbThrottles',
      'DynamoDB throttled reads or writes on the table or its indexes (a hot partition, or the account table limits)',
      new cloudwatch.MathExpression({
        expression: 'reads + writes',
        usingMetrics: {
          reads: table.metric('ReadThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }),
          writes: table.metric('WriteThrottleEvents', { period: FIVE_MINUTES, statistic: 'Sum' }),
        },
        label: 'throttled requests',
        period: FIVE_MINUTES,
      }),
      CAPACITY_THRESHOLDS.dynamoThrottles,
    ),
    concurrency: alarm(
      'LambdaConcurrencyNearQuota',
      `The account's claimed Lambda concurrency reached ${CAPACITY_THRESHOLDS.concurrencyPercent}% of its quota: ask AWS for more before bursts wait`,
      concurrencyShareOfQuota(),
      CAPACITY_THRESHOLDS.concurrencyPercent,
    ),
  };
  for (const [name, queue] of Object.entries(sources.workQueues)) {
    alarms[`${name}Age`] = alarm(
      `${name}Age`,
      `The oldest message in ${name} has waited ${CAPACITY_THRESHOLDS.queueAgeS / 60} minutes: its consumer is failing or cannot keep up`,
      queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      CAPACITY_THRESHOLDS.queueAgeS,
    );
  }
  return alarms;
}

/**
 * Claimed concurrency (unreserved in use plus everything reserved) over the account's quota, read from
 * Service Quotas through the usage metric: the quota is whatever AWS granted this account, not a number of ours.
 */
function concurrencyShareOfQuota(): cloudwatch.MathExpression {
  const period = Duration.minutes(1);
  return new cloudwatch.MathExpression({
    expression: '100 * claimed / SERVICE_QUOTA(usage)',
    usingMetrics: {
      claimed: new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName: 'ClaimedAccountConcurrency', statistic: 'Maximum', period }),
      usage: new cloudwatch.Metric({
        namespace: 'AWS/Usage',
        metricName: 'ResourceCount',
        dimensionsMap: { Service: 'Lambda', Type: 'Resource', Resource: 'ConcurrentExecutions', Class: 'None' },
        statistic: 'Maximum',
        period,
      }),
    },
    label: 'claimed concurrency (% of quota)',
    period,
  });
}
