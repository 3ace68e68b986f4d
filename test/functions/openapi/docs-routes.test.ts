/** The public routes that serve the API description and its reference page, through the meta handler. */
import { createHandler } from '#handlers/meta';
import { DOCS_PAGE_CSP, DOCS_SCRIPT_PATH, DOCS_STYLE_PATH, REFERENCE_CONFIG } from '#functions/openapi/docs-page';
import { matchRoute } from '#functions/routes';
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
    // text answers: the page, its script and its stylesheet
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
  test('a page that loads its script, its stylesheet and the document from this API', async () => {
    const answer = await invoke('/api/v1/docs');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain('<script src="/api/v1/docs/reference.js"></script>');
    expect(answer.body).toContain('<link rel="stylesheet" href="/api/v1/docs/reference.css">');
    expect(answer.body).toContain('"url":"/api/v1/openapi.json"');
    // Nothing outside this origin: no CDN, no remote fonts.
    expect(answer.body).not.toMatch(/https?:\/\//);
    expect(conforms('/api/v1/docs', answer)).toEqual([]);
  });

  test("the page's files are the meta function's routes", () => {
    expect(matchRoute('GET', DOCS_SCRIPT_PATH)).toMatchObject({ kind: 'matched', route: { group: 'meta', operation: 'docsScript' } });
    expect(matchRoute('GET', DOCS_STYLE_PATH)).toMatchObject({ kind: 'matched', route: { group: 'meta', operation: 'docsStyle' } });
  });

  test('turns off what would call out or act: the validator badge, "Try it out", options from the query string', () => {
    expect(REFERENCE_CONFIG).toMatchObject({ validatorUrl: null, supportedSubmitMethods: [], queryConfigEnabled: false });
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

describe("GET /api/v1/docs/reference.js and reference.css", () => {
  test("serve Swagger UI's prebuilt bundle", async () => {
    const answer = await invoke('/api/v1/docs/reference.js');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answer.body.length).toBeGreaterThan(1_000_000);
    expect(answer.body).toContain('SwaggerUIBundle');
    expect(conforms('/api/v1/docs/reference.js', answer)).toEqual([]);
  });

  test('and its stylesheet', async () => {
    const answer = await invoke('/api/v1/docs/reference.css');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/css/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.body).toContain('.swagger-ui');
    expect(conforms('/api/v1/docs/reference.css', answer)).toEqual([]);
  });

  test("serve whatever the handler's assets give (the layers' files on AWS)", async () => {
    const handler = createHandler(undefined, {
      docsScript: async () => 'console.log(1)',
      docsStyle: async () => 'body {}',
      openapiDocument: async () => '{"openapi":"3.1.0"}',
    });
    expect((await invoke('/api/v1/docs/reference.js', handler)).body).toBe('console.log(1)');
    expect((await invoke('/api/v1/docs/reference.css', handler)).body).toBe('body {}');
    expect((await invoke('/api/v1/openapi.json', handler)).body).toBe('{"openapi":"3.1.0"}');
  });
});
