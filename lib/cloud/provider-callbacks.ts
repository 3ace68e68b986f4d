/**
 * Hosted engines by callback (docs/decisions.md): the render function hands fal a webhook URL on the
 * HTTP API (POST /api/v1/engines/fal/callbacks/{ticket}, served by the videos function, which may send
 * task results to the state machine and nothing else), so it needs the API's address. The API's own
 * endpoint, not the studio's origin: a webhook gains nothing from the CDN in front of the studio.
 */
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type * as lambda from 'aws-cdk-lib/aws-lambda';

/** The variable the Lambda wiring reads (functions/config.ts: PROVIDER_CALLBACK_URL). */
export const PROVIDER_CALLBACK_ENV = 'PROVIDER_CALLBACK_URL';

export function nameProviderCallbacks(render: lambda.IFunction, httpApi: HttpApi): void {
  (render as lambda.Function).addEnvironment(PROVIDER_CALLBACK_ENV, httpApi.apiEndpoint);
}
