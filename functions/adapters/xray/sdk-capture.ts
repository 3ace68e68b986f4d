/**
 * X-Ray subsegments for every AWS SDK call (S3, DynamoDB) and outgoing HTTPS request of a function,
 * through the Powertools Tracer. It brings aws-xray-sdk-core (about 125 KB minified, and its async
 * context hooks), so only the render function uses it, where transfers of clips and engine calls are
 * worth seeing; every function already has its own segment from Lambda's active tracing. The tracer
 * is loaded when the first client is made, so a runtime that never builds the Lambda wiring (the local
 * stack, which loads the same handler module) never loads it.
 */
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { ClientInstrument } from '#adapters/aws-clients';
import { SERVICE_NAME } from '#domain/metrics';

let tracer: Tracer | undefined;

export const xrayCapture: ClientInstrument = (client) => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  tracer ??= new (require('@aws-lambda-powertools/tracer') as typeof import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: SERVICE_NAME });
  return tracer.captureAWSv3Client(client);
};
