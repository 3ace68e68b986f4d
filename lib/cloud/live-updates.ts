/**
 * Live updates on AWS (docs/live-updates.md): an API Gateway WebSocket API whose $connect, $disconnect
 * and $default routes call one small function (the ticket is checked in $connect; $default's answer
 * goes back down the socket as its route response), and a pusher woken by the table's stream for every
 * job, product and avatar written, posting to the sockets that follow them through the Management API.
 * Sockets, subscriptions and tickets live in the table with its TTL.
 */
import { Duration, RemovalPolicy, Stack, type CfnElement } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination, WebSocketApi, WebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EngineConfig } from './engine-config';
import { failureQueue } from './failure-queue';
import { LIVE_UPDATE_FUNCTION_SIZES } from './function-sizes';
import { acknowledge, nagArnHead } from './nag';
import { ServiceFunction, type ServiceFunctionNeeds } from './service-function';

const LIVE_UPDATE_FUNCTIONS = {
  socket: {
    entry: 'functions/handlers/update-socket.ts',
    description: 'the live-updates WebSocket: takes tickets ($connect), subscriptions ($default), ends ($disconnect)',
    table: 'readwrite',
    // A subscription is answered with the record as its GET answers it: signed playback links included.
    bucket: 'read',
  },
  pusher: {
    entry: 'functions/handlers/update-pusher.ts',
    description: 'pushes changed jobs, products and avatars to the WebSocket connections that follow them',
    table: 'readwrite',
    bucket: 'read',
  },
} as const satisfies Record<string, ServiceFunctionNeeds>;

/** The stage's name: the last part of the socket's address (`wss://…/v1`). */
export const UPDATES_STAGE = 'v1';
/** What the ticket function tells clients to connect to, and where the pusher posts. */
export const UPDATES_ENV = { url: 'UPDATES_URL', endpoint: 'UPDATES_ENDPOINT' } as const;

/** Records the pusher is woken for: their sort keys, as functions/adapters/dynamodb/keys.ts writes them. */
const FOLLOWED_PREFIXES = ['JOB#', 'PRODUCT#', 'AVATAR#'] as const;

export interface LiveUpdatesProps {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  nativeLayer: lambda.ILayerVersion;
  engines: EngineConfig;
  mediaLinks?: { grantSigning(fn: lambda.Function): void };
}

export class LiveUpdates extends Construct {
  readonly webSocketApi: WebSocketApi;
  readonly stage: WebSocketStage;
  readonly socketFunction: lambda.IFunction;
  readonly pusher: lambda.IFunction;
  /** Stream batches the pusher failed on three times: their updates are lost (a later change pushes the record again). */
  readonly failedStreamBatches: sqs.IQueue;
  /** `wss://{api}.execute-api.{region}.amazonaws.com/v1`: where a ticket's holder connects. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: LiveUpdatesProps) {
    super(scope, id);
    const socket = new ServiceFunction(this, 'SocketFunction', { ...props, needs: LIVE_UPDATE_FUNCTIONS.socket, size: LIVE_UPDATE_FUNCTION_SIZES.socket }).fn;
    const pusher = new ServiceFunction(this, 'PusherFunction', { ...props, needs: LIVE_UPDATE_FUNCTIONS.pusher, size: LIVE_UPDATE_FUNCTION_SIZES.pusher }).fn;
    this.socketFunction = socket;
    this.pusher = pusher;

    const integration = new WebSocketLambdaIntegration('Socket', socket);
    this.webSocketApi = new WebSocketApi(this, 'WebSocketApi', {
      description: 'Reaction Studio live updates (docs/live-updates.md)',
      connectRouteOptions: { integration },
      disconnectRouteOptions: { integration },
      // Every message goes to $default; its answer is sent back down the socket.
      defaultRouteOptions: { integration, returnResponse: true },
    });
    const auth = 'the function checks the single-use ticket in $connect (issued by POST /updates/tickets to an authenticated key or session); later messages come on that connection only';
    acknowledge(this.webSocketApi, { 'AwsSolutions-APIG4': auth });
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.webSocketApi,
      stageName: UPDATES_STAGE,
      autoDeploy: true,
      // Messages are a subscription now and then and a ping every few minutes: far below this.
      throttle: { rateLimit: 100, burstLimit: 200 },
      accessLogSettings: { destination: new LogGroupLogDestination(this.accessLogs()), format: ACCESS_LOG_FORMAT },
    });
    this.url = this.stage.url;

    // Only the stage's connections: the pusher cannot post to any other API's.
    this.stage.grantManagementApiAccess(pusher);
    (pusher as lambda.Function).addEnvironment(UPDATES_ENV.endpoint, this.stage.callbackUrl);
    this.failedStreamBatches = failureQueue(this, 'StreamFailures');
    pusher.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.LATEST,
        batchSize: 100,
        maxBatchingWindow: Duration.millis(0),
        retryAttempts: 3,
        onFailure: new SqsDlq(this.failedStreamBatches),
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: { Keys: { sk: { S: FOLLOWED_PREFIXES.map((prefix) => lambda.FilterRule.beginsWith(prefix)).flat() } } },
          }),
        ],
      }),
    );
    acknowledge(pusher, { 'Serverless-LambdaDLQ': 'invoked by its stream event source only, whose on-failure destination (StreamFailures) keeps batches it fails on' });
    const apiId = Stack.of(this).getLogicalId(this.webSocketApi.node.defaultChild as CfnElement);
    acknowledge(pusher.role!, {
      [`AwsSolutions-IAM5[Resource::${nagArnHead(this, 'execute-api')}:<${apiId}>/${UPDATES_STAGE}/*/@connections/*]`]:
        'connection ids are made by API Gateway at each $connect: the grant is every connection of this one stage, which is all it can name',
    });
    acknowledge(socket, { 'Serverless-LambdaDLQ': 'invoked synchronously by API Gateway, which answers the client with its failure: nothing is left to redrive' });
  }

  private accessLogs(): logs.LogGroup {
    return new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
  }
}

/** One line per connection event and message; never the query string, which holds the ticket. */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    connectionId: '$context.connectionId',
    eventType: '$context.eventType',
    routeKey: '$context.routeKey',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    status: '$context.status',
    integrationError: '$context.integrationErrorMessage',
  }),
);
