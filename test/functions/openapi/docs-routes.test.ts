/** The public routes that serve the API description and its reference page, through the meta handler. */
import { createHandler } from '#handlers/meta';
import { DOCS_PAGE_CSP, SCALAR_CONFIG } from '#functions/openapi/docs-page';
import { buildOpenApiDocument } from '#functions/openapi/document';
import { openApiMismatches } from '#test-support/openapi-validator';

const event = (path: string, method = 'GET') =>
  ({ rawPath: path, routeKey: '$default', headers: {}, requestContext: { http: { method }, requestId: 'test-request' } }) as never;

const invoke = async (path: string, handler = createHandler()) => (await handler(event(path), {} as never)) as { statusCode: number; headers: Record<string, string>; body: string };

const conforms = (path: string, answer: { statusCode: number; headers: Record<string, string>; body: string }) => {
  let body: unknown = answer.body;
  try {
    body = JSON.parse(answer.body);
  } catch {
    // text answers: the page and its script
  }
  return openApiMismatches({ method: 'GET', pathname: path, status: answer.statusCode, headers: new Headers(answer.headers), body });
};

describe('GET /api/v1/openapi.json', () => {
  test('answers the generated document (the committed copy, kept current by a test), compact, without a key', async () => {
    const answer = await invoke('/api/v1/openapi.json');
    expect(answer.body).not.toContain('\n');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expect(conforms('/api/v1/openapi.json', answer)).toEqual([]);
  });
});

describe('GET /api/v1/docs', () => {
  test('a page that loads its script from this API and the document from this API', async () => {
    const answer = await invoke('/api/v1/docs');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain('<script src="/api/v1/docs/scalar.js"></script>');
    expect(answer.body).toContain('"url":"/api/v1/openapi.json"');
    // Nothing outside this origin: no CDN, no remote fonts.
    expect(answer.body).not.toMatch(/https?:\/\//);
    expect(conforms('/api/v1/docs', answer)).toEqual([]);
  });

  test('turns off what would call out: default fonts, telemetry, the hosted agent, MCP', () => {
    expect(SCALAR_CONFIG).toMatchObject({ withDefaultFonts: false, telemetry: false, agent: { disabled: true }, mcp: { disabled: true } });
  });

  test('its Content-Security-Policy lets the page reach its own origin only', async () => {
    const answer = await invoke('/api/v1/docs');
    expect(answer.headers['content-security-policy']).toBe(DOCS_PAGE_CSP);
    const directives = Object.fromEntries(DOCS_PAGE_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives['default-src']).toEqual(["'none'"]);
    for (const name of ['script-src', 'style-src', 'img-src', 'font-src', 'connect-src']) {
      for (const source of directives[name]!) expect(source).toMatch(/^'(self|none|unsafe-inline|sha256-[A-Za-z0-9+/=]+)'$|^data:$/);
    }
    // The inline boot script is allowed by its hash, not by 'unsafe-inline'.
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
  });
});

describe('GET /api/v1/docs/scalar.js', () => {
  test("serves Scalar's standalone bundle", async () => {
    const answer = await invoke('/api/v1/docs/scalar.js');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.body.length).toBeGreaterThan(1_000_000);
    expect(answer.body).toContain('createApiReference');
    expect(conforms('/api/v1/docs/scalar.js', answer)).toEqual([]);
  });

  test("serves whatever the handler's assets give (the layers' files on AWS)", async () => {
    const handler = createHandler(undefined, { docsScript: async () => 'console.log(1)', openapiDocument: async () => '{"openapi":"3.1.0"}' });
    expect((await invoke('/api/v1/docs/scalar.js', handler)).body).toBe('console.log(1)');
    expect((await invoke('/api/v1/openapi.json', handler)).body).toBe('{"openapi":"3.1.0"}');
  });
});
