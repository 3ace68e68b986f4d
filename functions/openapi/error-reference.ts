/**
 * The error reference (`GET /api/v1/docs/errors`): every code the envelope can carry, its status and
 * what to do, one anchor per code for the envelope's `doc_url`. Built from the one list of codes
 * (domain/errors.ts), so a new code is on the page the day it exists. A static page with no script.
 */
import { ERROR_CODES, ERROR_HELP, type ErrorCode } from '#domain/errors';
import { API_NAME } from '#functions/routes';

export const ERROR_REFERENCE_CSP = ["default-src 'none'", "style-src 'unsafe-inline'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');

// Four characters to escape in text we wrote ourselves: not worth a dependency.
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** The help texts mark names with backticks, as the API description does. */
const withCode = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const entry = (code: ErrorCode) => `<section id="${code}">
<h2><code>${code}</code> <span class="status">${ERROR_CODES[code]}</span></h2>
<p>${withCode(ERROR_HELP[code])}</p>
</section>`;

export const ERROR_REFERENCE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${API_NAME}: errors</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
h2 { font-size: 1.1rem; margin: 1.6rem 0 0.3rem; }
.status { color: #6e6e73; font-weight: normal; margin-left: 0.4rem; }
code { background: #f2f2f5; padding: 0 0.25rem; border-radius: 3px; }
section:target { background: #fff8d6; margin: 0 -0.6rem; padding: 0.1rem 0.6rem; border-radius: 6px; }
</style>
</head>
<body>
<h1>${API_NAME}: errors</h1>
<p>Every error answer is one JSON envelope: <code>error</code> (what went wrong, fit to show; a 500 says only "Internal server error"), <code>code</code> (one of the codes below, to branch on), <code>param</code> (the request field at fault, when one is), <code>request_id</code> (also in the <code>x-request-id</code> header: quote it to support) and <code>doc_url</code> (a link to the code's entry on this page).</p>
${(Object.keys(ERROR_CODES) as ErrorCode[]).map(entry).join('\n')}
</body>
</html>
`;
