/**
 * The public routes: GET / (liveness), the API description, its reference page and the error reference. The request-context
 * middleware also answers unknown routes here (404/405) in the envelope.
 */
import type { ApiResult, PublicOperation } from '#http/api-types';
import { ok } from '#http/respond';
import { API_NAME, API_PREFIX, API_REVISION, API_VERSION } from '#functions/routes';
import { DOCS_PAGE_CSP, DOCS_PAGE_HTML } from '#functions/openapi/docs-page';
import { ERROR_REFERENCE_CSP, ERROR_REFERENCE_HTML } from '#functions/openapi/error-reference';

/** The files these routes serve, which the runtime ships (the handler decides where from). */
export interface MetaAssets {
  /** The reference page's script and stylesheet. */
  docsScript(): Promise<string>;
  docsStyle(): Promise<string>;
  /** The OpenAPI document's text. */
  openapiDocument(): Promise<string>;
}

const liveness: PublicOperation = async () =>
  ok({ name: API_NAME, version: API_VERSION, revision: API_REVISION, base_path: API_PREFIX, status: 'ok' });

const text = (contentType: string, body: string, extra: Record<string, string> = {}): ApiResult => ({
  statusCode: 200,
  headers: { 'content-type': contentType, 'cache-control': 'public, max-age=300', ...extra },
  body,
});

const docsPage: PublicOperation = async () =>
  text('text/html; charset=utf-8', DOCS_PAGE_HTML, { 'content-security-policy': DOCS_PAGE_CSP, 'x-content-type-options': 'nosniff' });

const docsErrors: PublicOperation = async () =>
  text('text/html; charset=utf-8', ERROR_REFERENCE_HTML, { 'content-security-policy': ERROR_REFERENCE_CSP, 'x-content-type-options': 'nosniff' });

export function metaOperations(assets: MetaAssets) {
  const docsScript: PublicOperation = async () =>
    text('text/javascript; charset=utf-8', await assets.docsScript(), { 'x-content-type-options': 'nosniff' });
  const docsStyle: PublicOperation = async () => text('text/css; charset=utf-8', await assets.docsStyle(), { 'x-content-type-options': 'nosniff' });
  const openapiDocument: PublicOperation = async () => text('application/json; charset=utf-8', await assets.openapiDocument());
  return {
    liveness: { public: liveness },
    openapiDocument: { public: openapiDocument },
    docsPage: { public: docsPage },
    docsScript: { public: docsScript },
    docsStyle: { public: docsStyle },
    docsErrors: { public: docsErrors },
  };
}
