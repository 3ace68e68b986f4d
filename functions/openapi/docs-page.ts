/**
 * The reference page: Swagger UI's prebuilt bundle and stylesheet, served by this API (no CDN), reading
 * the document from this API. The Content-Security-Policy lets the page reach nothing but its own
 * origin, so no font, script or call can leave it whatever the bundle's defaults are.
 */
import { createHash } from 'node:crypto';
import { API_NAME, fullPath } from '#functions/routes';

/** The page's own files and the document, each a route of the meta function (functions/routes.ts). */
export const DOCS_SCRIPT_PATH = fullPath('/docs/reference.js');
export const DOCS_STYLE_PATH = fullPath('/docs/reference.css');
const OPENAPI_PATH = fullPath('/openapi.json');

/**
 * Swagger UI options: a reference, not a client (no "Try it out"), no validator badge (it would send
 * the document's address to validator.swagger.io) and no options taken from the page's query string.
 */
export const REFERENCE_CONFIG = {
  url: OPENAPI_PATH,
  dom_id: '#app',
  deepLinking: true,
  validatorUrl: null,
  supportedSubmitMethods: [],
  queryConfigEnabled: false,
} as const;

const boot = `SwaggerUIBundle(${JSON.stringify(REFERENCE_CONFIG)});`;
const bootHash = createHash('sha256').update(boot).digest('base64');

export const DOCS_PAGE_CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${bootHash}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const DOCS_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${API_NAME} reference</title>
<link rel="stylesheet" href="${DOCS_STYLE_PATH}">
<style>body { margin: 0; }</style>
</head>
<body>
<div id="app"></div>
<script src="${DOCS_SCRIPT_PATH}"></script>
<script>${boot}</script>
</body>
</html>
`;
