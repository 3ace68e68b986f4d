/**
 * Where invocations that failed for good are kept for an operator: an encrypted SQS queue, TLS only,
 * holding each message the longest SQS allows (14 days). The workers' on-failure destination and the
 * execution-ended rule's dead-letter queue are such queues; an alarm on their depth tells someone.
 */
import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { acknowledge } from './nag';

const FAILURE_RETENTION_DAYS = 14;

export function failureQueue(scope: Construct, id: string): sqs.Queue {
  const queue = new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    retentionPeriod: Duration.days(FAILURE_RETENTION_DAYS),
    enforceSSL: true,
  });
  const isTheEnd = 'it is where failures end up: a dead-letter queue behind it would only move them again';
  acknowledge(queue, { 'AwsSolutions-SQS3': isTheEnd, 'Serverless-SQSRedrivePolicy': isTheEnd });
  return queue;
}
