/**
 * The MCP endpoint: `ANY /mcp` on the HTTP API, served by a function that holds no grant to the table
 * or the bucket. Its tools call the API's own public endpoint with the caller's key, so the API's
 * authentication, scopes and rate limit apply to them unchanged.
 */
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpMethod, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { API_PREFIX } from '#functions/routes';
// The name only: the handler module would bring the whole MCP server (and the built client) into the synthesis.
import { API_BASE_URL_ENV } from '#functions/config';
import { acknowledge } from './nag';
import { MCP_FUNCTION_SIZE } from './function-sizes';
import { ServiceFunction, type ServiceFunctionNeeds, type ServiceFunctionProps } from './service-function';

export const MCP_PATH = '/mcp';

export const MCP_FUNCTION: ServiceFunctionNeeds = {
  entry: 'functions/handlers/mcp.ts',
  description: 'the MCP server (streamable HTTP): tools over the public API, with the caller\'s key',
  table: 'none',
  bucket: 'none',
  // The MCP SDK imports these for what this server never does (about 200 KB): Ajv validates
  // elicitation answers (it never elicits; clients/mcp/src/server.ts), and zod 3 with its JSON Schema
  // converter serves zod 3 schemas (the tools' are zod 4).
  absent: ['ajv', 'ajv-formats', 'zod/v3', 'zod-to-json-schema'],
  // Under API Gateway's 30 s: a tool's wait stops at 20 s and answers the job as it is.
};

export class McpEndpoint extends Construct {
  readonly fn: lambda.IFunction;

  constructor(scope: Construct, id: string, props: Omit<ServiceFunctionProps, 'needs' | 'size'> & { httpApi: HttpApi }) {
    super(scope, id);
    const fn = new ServiceFunction(this, 'Handler', { ...props, needs: MCP_FUNCTION, size: MCP_FUNCTION_SIZE }).fn;
    fn.addEnvironment(API_BASE_URL_ENV, `${props.httpApi.apiEndpoint}${API_PREFIX}`);
    acknowledge(fn, { 'Serverless-LambdaDLQ': "invoked synchronously by API Gateway: a failure is the caller's 5xx, nothing to redrive" });
    const route = new HttpRoute(this, 'Route', {
      httpApi: props.httpApi,
      routeKey: HttpRouteKey.with(MCP_PATH, HttpMethod.ANY),
      integration: new HttpLambdaIntegration('Integration', fn),
    });
    acknowledge(route, { 'AwsSolutions-APIG4': 'the function answers 401 without a key the API accepts, and every tool call is authenticated by the API itself' });
    this.fn = fn;
  }
}
