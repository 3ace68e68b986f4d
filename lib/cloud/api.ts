/**
 * The HTTP API: one Lambda per handler group, one route per entry of the route table, and `$default`
 * sent to the meta group, which answers unknown paths (404) and known paths with another method (405)
 * in the error envelope; beside them `ANY /mcp`, the MCP server (mcp-endpoint.ts).
 */
import * as path from 'node:path';
import { API_FUNCTION_SIZES } from './function-sizes';
import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { EngineConfig } from './engine-config';
import {
  API_PREFIX,
  fullPath,
  HANDLER_GROUPS,
  ROUTES,
  routeKey,
  type HandlerGroup,
  type RouteDefinition,
} from '#functions/routes';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { constructId, PROJECT_ROOT, ServiceFunction } from './service-function';
import { ImageServiceFunction, type ImageTrees } from './render-image';
import { DOCS_FILES, docsAssetsDir } from './bundling';
import { LAMBDA_RUNTIME } from './runtime';
import { acknowledge } from './nag';
import { OPENAPI_DOCUMENT_ENV, OPENAPI_FILE } from '#functions/openapi/docs-assets';
import { AWS_INLINE_UPLOAD_MAX_BYTES } from '#domain/uploads';
import { McpEndpoint } from './mcp-endpoint';
import { activeAccountsFromContext, stageThrottle } from './stage-throttle';
import type { MailSetup } from './mail';
import type { BillingConfig } from './billing-config';

/** Read by settingsFromEnv (functions/config.ts) as Settings.inlineUploadMaxBytes. */
export const INLINE_UPLOAD_ENV = 'INLINE_UPLOAD_MAX_BYTES';

export interface ApiProps {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  /** The trees of the groups that ship as images (those that run ffmpeg; function-sizes.ts). */
  imageTrees: ImageTrees;
  nativeLayer: lambda.ILayerVersion;
  /** The face runtime, for the groups that look for a face in an upload themselves (avatars). */
  faceLayer: lambda.ILayerVersion;
  engines: EngineConfig;
  /** Stripe, when the deployment takes payments (billing-config.ts). */
  billing: BillingConfig;
  workers: Readonly<Record<string, lambda.IFunction>>;
  /** The functions groups call synchronously (`calls`: the face-check function, for videos). */
  helpers: Readonly<Record<string, lambda.IFunction>>;
  /** The job state machine: groups whose `jobs` ask for it may start executions or answer task tokens. */
  stateMachine: sfn.IStateMachine;
  /** The mail sender and studio address, for the groups that mail (accounts); unset: none is sent. */
  mail?: MailSetup;
  /** Concurrent executions reserved for each API function (concurrency.ts); unset: none. */
  reservedConcurrency?: number;
}

export class Api extends Construct {
  readonly httpApi: HttpApi;
  readonly functions: Record<HandlerGroup, lambda.IFunction>;
  /** `ANY /mcp`: the MCP server over streamable HTTP (mcp-endpoint.ts). */
  readonly mcp: McpEndpoint;
  /** The base URL clients use, API prefix included. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);

    const groups = Object.keys(HANDLER_GROUPS) as HandlerGroup[];
    const functions = {} as Record<HandlerGroup, lambda.IFunction>;
    const integrations = {} as Record<HandlerGroup, HttpLambdaIntegration>;
    let metaFunction: NodejsFunction | undefined;
    for (const group of groups) {
      const fnProps = { ...props, needs: HANDLER_GROUPS[group], size: { ...API_FUNCTION_SIZES[group], reservedConcurrency: props.reservedConcurrency } };
      const fn = fnProps.size.packaging === 'image' ? new ImageServiceFunction(this, `${constructId(group)}Handler`, fnProps).fn : new ServiceFunction(this, `${constructId(group)}Handler`, fnProps).fn;
      acknowledge(fn, { 'Serverless-LambdaDLQ': "invoked synchronously by API Gateway: a failure is the caller's 5xx, nothing to redrive" });
      if (group === 'meta') metaFunction = fn as NodejsFunction;
      // A request reaches the function only up to what API Gateway and Lambda carry: past this, files go through POST /uploads.
      if (ROUTES.some((r) => r.group === group && r.body?.files)) fn.addEnvironment(INLINE_UPLOAD_ENV, String(AWS_INLINE_UPLOAD_MAX_BYTES));
      functions[group] = fn;
      integrations[group] = new HttpLambdaIntegration(`${constructId(group)}Integration`, fn);
    }
    this.functions = functions;
    addDocsAssets(this, metaFunction!);

    this.httpApi = new HttpApi(this, 'HttpApi', {
      description: 'Reaction Studio public API',
      createDefaultStage: false,
      defaultIntegration: integrations.meta,
    });
    acknowledge(this.httpApi, { 'AwsSolutions-APIG4': '$default only answers 404 and 405 (the meta function), with no credential to check' });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      // A backstop above the handlers' per-account limit, sized for every active account at once (stage-throttle.ts).
      throttle: stageThrottle(activeAccountsFromContext(this)),
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationStatus: '$context.integrationStatus',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    for (const route of ROUTES) {
      const httpRoute = new HttpRoute(this, routeConstructId(route), {
        httpApi: this.httpApi,
        routeKey: HttpRouteKey.with(fullPath(route.path), HttpMethod[route.method]),
        integration: integrations[route.group],
      });
      acknowledge(httpRoute, {
        'AwsSolutions-APIG4':
          route.auth === 'none'
            ? 'public by contract (liveness, the API description and its reference page)'
            : "the function authenticates the API key (authenticate middleware: hashed keys in DynamoDB), before any operation runs",
      });
    }

    this.mcp = new McpEndpoint(this, 'Mcp', { ...props, httpApi: this.httpApi });
    this.url = `${this.httpApi.apiEndpoint}${API_PREFIX}`;
  }
}

/**
 * The files the meta function serves reach it (and only it) as layers: the reference page's script and
 * stylesheet (bundling.ts) in one, and the committed API description, which a test keeps equal to what
 * the schemas generate, so the function bundles no schema.
 */
function addDocsAssets(scope: Construct, meta: NodejsFunction): void {
  const layer = (id: string, description: string, dir: string, files: readonly string[]) =>
    new lambda.LayerVersion(scope, id, {
      description,
      code: lambda.Code.fromAsset(dir, { exclude: ['*', ...files.map((file) => `!${file}`)] }),
      compatibleRuntimes: [LAMBDA_RUNTIME],
      compatibleArchitectures: [lambda.Architecture.X86_64],
    });
  const pageFiles = Object.values(DOCS_FILES);
  meta.addLayers(
    layer('DocsPageLayer', "the API reference page's script and stylesheet (Swagger UI)", docsAssetsDir(), pageFiles.map((f) => f.fileName)),
    layer('OpenApiDocumentLayer', 'the API description (OpenAPI 3.1)', path.join(PROJECT_ROOT, path.dirname(OPENAPI_FILE)), [path.basename(OPENAPI_FILE)]),
  );
  for (const file of pageFiles) meta.addEnvironment(file.env, `/opt/${file.fileName}`);
  meta.addEnvironment(OPENAPI_DOCUMENT_ENV, `/opt/${path.basename(OPENAPI_FILE)}`);
}

/** `GET /api/v1/products/{id}` -> `Route GET api v1 products {id}` (construct ids may not hold `/`). */
function routeConstructId(route: RouteDefinition): string {
  return `Route ${routeKey(route).replace(/\//g, ' ').replace(/\s+/g, ' ')}`;
}
