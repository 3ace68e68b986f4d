/**
 * Webhook delivery on AWS. Events are written to the table in the same transaction as the state
 * change that raised them (functions/adapters/dynamodb/webhook-outbox.ts); the table's stream wakes the
 * dispatcher on each new event, and a one-minute schedule runs it too (retries whose time came, a
 * lane's next delivery, anything a failed run left). The dispatcher fans events out into deliveries and
 * queues the due ones on SQS; the delivery function sends them. A message the delivery function keeps
 * failing on (our error, never a receiver's answer) goes to a dead-letter queue that an alarm watches.
 */
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EngineConfig } from './engine-config';
import { failureQueue } from './failure-queue';
import { acknowledge } from './nag';
import { ServiceFunction, type ServiceFunctionNeeds } from './service-function';
import { WEBHOOK_FUNCTION_SIZES } from './function-sizes';

const WEBHOOK_FUNCTIONS = {
  dispatch: {
    entry: 'functions/handlers/webhook-dispatch.ts',
    description: 'fans webhook events out into deliveries and queues the due ones',
    table: 'readwrite',
    // Payloads carry the records as GET answers them: signed playback links included.
    bucket: 'read',
  },
  deliver: {
    entry: 'functions/handlers/webhook-deliver.ts',
    description: 'sends queued webhook deliveries to their endpoints',
    table: 'readwrite',
    bucket: 'none',
    // Ten attempts of at most 10 s each run side by side.
  },
} as const satisfies Record<string, ServiceFunctionNeeds>;

/** The dispatcher's schedule: the longest a retry or a lane's next delivery waits past its time. */
export const WEBHOOK_SWEEP_MINUTES = 1;
/** Tries of one delivery message before it goes to the dead-letter queue. */
export const WEBHOOK_MAX_RECEIVES = 5;

export interface WebhooksProps {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  nativeLayer: lambda.ILayerVersion;
  engines: EngineConfig;
  mediaLinks?: { grantSigning(fn: lambda.Function): void };
}

export class Webhooks extends Construct {
  readonly dispatcher: lambda.IFunction;
  readonly deliverer: lambda.IFunction;
  readonly queue: sqs.IQueue;
  /** Delivery messages that failed for good; an alarm watches its depth (observability.ts). */
  readonly failedDeliveries: sqs.IQueue;
  /** Stream batches the dispatcher failed on three times (the schedule fans their events out anyway). */
  readonly failedStreamBatches: sqs.IQueue;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    const dispatcher = new ServiceFunction(this, 'DispatchFunction', { ...props, needs: WEBHOOK_FUNCTIONS.dispatch, size: WEBHOOK_FUNCTION_SIZES.dispatch }).fn;
    const deliverer = new ServiceFunction(this, 'DeliverFunction', { ...props, needs: WEBHOOK_FUNCTIONS.deliver, size: WEBHOOK_FUNCTION_SIZES.deliver }).fn;
    this.dispatcher = dispatcher;
    this.deliverer = deliverer;

    this.failedDeliveries = failureQueue(this, 'FailedDeliveries');
    const queue = new sqs.Queue(this, 'DeliveryQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Six times the function's timeout, as Lambda advises for an SQS event source.
      visibilityTimeout: Duration.seconds(WEBHOOK_FUNCTION_SIZES.deliver.timeoutS * 6),
      deadLetterQueue: { queue: this.failedDeliveries, maxReceiveCount: WEBHOOK_MAX_RECEIVES },
    });
    this.queue = queue;
    queue.grantSendMessages(dispatcher);
    dispatcher.addEnvironment('WEBHOOK_QUEUE_URL', queue.queueUrl);
    deliverer.addEventSource(new SqsEventSource(queue, { batchSize: 10, reportBatchItemFailures: true }));

    // Only new events wake it: the stream carries keys only, and the filter keeps the outbox's inserts.
    const streamFailures = failureQueue(this, 'StreamFailures');
    this.failedStreamBatches = streamFailures;
    dispatcher.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.LATEST,
        batchSize: 100,
        retryAttempts: 3,
        onFailure: new SqsDlq(streamFailures),
        filters: [lambda.FilterCriteria.filter({ eventName: lambda.FilterRule.isEqual('INSERT'), dynamodb: { Keys: { sk: { S: lambda.FilterRule.beginsWith('WHEVENT#') } } } })],
      }),
    );
    const schedule = new events.Rule(this, 'DispatchSchedule', {
      description: 'Fans out webhook events and queues due deliveries (retries, lanes, anything a stream run missed)',
      schedule: events.Schedule.rate(Duration.minutes(WEBHOOK_SWEEP_MINUTES)),
      targets: [new targets.LambdaFunction(dispatcher, { retryAttempts: 2 })],
    });
    const nextRun = `idempotent and run every ${WEBHOOK_SWEEP_MINUTES} minute: the next run redoes a failed one (the outbox and the due index are the truth)`;
    acknowledge(dispatcher, { 'Serverless-LambdaDLQ': nextRun });
    acknowledge(schedule, { 'Serverless-EventBusDLQ': nextRun });
    const queueDlq = 'invoked by its SQS queue, whose dead-letter queue (FailedDeliveries) keeps what fails for good';
    acknowledge(deliverer, { 'Serverless-LambdaDLQ': queueDlq, 'Serverless-LambdaEventSourceMappingDestination': `an SQS event source has no on-failure destination: ${queueDlq}` });
  }
}
