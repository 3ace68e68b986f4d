/**
 * The reference page: Scalar's standalone bundle, served by this API (no CDN), reading the document
 * from this API. The Content-Security-Policy lets the page reach nothing but its own origin, so no
 * font, script or telemetry call can leave it whatever the bundle's defaults are.
 */
import { createHash } from 'node:crypto';
import { API_NAME, API_PREFIX } from '#functions/routes';

const DOCS_SCRIPT_PATH = `${API_PREFIX}/docs/scalar.js`;
const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/** Scalar options: our fonts (none fetched), no telemetry, no hosted agent, MCP or developer tools. */
export const SCALAR_CONFIG = {
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
} as const;

const boot = `Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_CONFIG)});`;
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
<style>body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }</style>
</head>
<body>
<div id="app"></div>
<script src="${DOCS_SCRIPT_PATH}"></script>
<script>${boot}</script>
</body>
</html>
`;
