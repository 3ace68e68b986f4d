/** The API description covers the route table exactly, and the committed copy is the generator's output. */
import { readFileSync } from 'node:fs';
import { ROUTES, routeKey } from '#functions/routes';
import { buildOpenApiDocument } from '#functions/openapi/document';
import { OPENAPI_FILE, openApiText } from '#functions/openapi/file';
import { operationIdOf } from '#functions/openapi/operation-ids';
import { contractsWithoutRoute } from '#functions/openapi/route-contracts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();
  const documented = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => (item as Record<string, unknown>)[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`),
  );

  test('is OpenAPI 3.1', () => {
    expect(document.openapi).toBe('3.1.0');
  });

  test('every route of the route table is documented, and every documented operation is a route', () => {
    const routes = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect([...documented].sort()).toEqual([...routes].sort());
  });

  test('every contract describes a route of the table (none left behind by a renamed or removed route)', () => {
    expect(contractsWithoutRoute()).toEqual([]);
  });

  test('operation ids are unique and stable', () => {
    const ids = ROUTES.map(operationIdOf);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('videosCreate');
  });

  test('authenticated operations name their scopes (a key) or the session cookie, and answer 401, 403 and 429 with the rate-limit headers', () => {
    for (const route of ROUTES.filter((r) => r.auth !== 'none')) {
      const op = (document.paths as any)[route.path][route.method.toLowerCase()];
      expect(op.security).toEqual(route.auth === 'session' ? [{ sessionCookie: [] }] : [{ apiKey: [...route.scopes] }, { sessionCookie: [] }]);
      for (const status of ['401', '403', '429', '500']) expect(Object.keys(op.responses)).toContain(status);
      expect(op.responses['429'].headers['Retry-After']).toBeDefined();
      const success = Object.keys(op.responses).find((s) => s.startsWith('2') || s.startsWith('3'))!;
      expect(Object.keys(op.responses[success].headers)).toEqual(
        expect.arrayContaining(['x-request-id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    }
  });

  test('sign-up and sign-in are public and answer 429 with Retry-After; managing keys takes the session cookie only', () => {
    for (const path of ['/auth/signup', '/auth/login']) {
      const op = (document.paths as any)[path].post;
      expect(op.security).toEqual([]);
      expect(op.responses['429'].headers['Retry-After']).toBeDefined();
    }
    expect((document.paths as any)['/keys'].post.security).toEqual([{ sessionCookie: [] }]);
    expect((document as any).components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'rs_session' });
  });

  test('public operations need no credential', () => {
    for (const route of ROUTES.filter((r) => r.auth === 'none')) {
      expect((document.paths as any)[route.path][route.method.toLowerCase()].security).toEqual([]);
    }
  });

  test('uploads are multipart with their file parts as binary (on the shapes that take them); POST /videos takes an Idempotency-Key', () => {
    const create = (document.paths as any)['/videos'].post;
    // Multipart is one shape per method too: the motion one takes the reference clip as a file part.
    const multipart = create.requestBody.content['multipart/form-data'].schema;
    expect(multipart.discriminator.mapping.motion).toBe('#/components/schemas/MotionVideoRequestMultipart');
    const motion = (document as any).components.schemas.MotionVideoRequestMultipart;
    expect(motion.properties.reference_video).toMatchObject({ type: 'string', format: 'binary' });
    const regenerate = (document.paths as any)['/videos/jobs/{id}/regenerate'].post.requestBody.content['multipart/form-data'].schema;
    expect(regenerate.properties.reference_video).toMatchObject({ type: 'string', format: 'binary' });
    expect(Object.keys(create.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']);
    expect(create.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['202', '402', '409', '413', '415', '422']));
    const avatar = (document.paths as any)['/avatars'].post.requestBody.content['multipart/form-data'].schema;
    expect(avatar.required).toEqual(['image']);
  });

  test('paged lists take page and per_page and answer meta', () => {
    for (const route of ROUTES.filter((r) => r.query?.includes('page'))) {
      const op = (document.paths as any)[route.path][route.method.toLowerCase()];
      expect(op.parameters).toEqual(expect.arrayContaining([{ $ref: '#/components/parameters/Page' }, { $ref: '#/components/parameters/PerPage' }]));
      expect(op.responses['200'].content['application/json'].schema.properties.meta).toEqual({ $ref: '#/components/schemas/PageMeta' });
    }
  });

  test(`${OPENAPI_FILE} is up to date (npm run openapi writes it)`, () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(openApiText());
  });

  test('route keys and document paths agree on the prefix', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/api/v1' })]);
    expect(routeKey(ROUTES[0]!)).toBe('GET /api/v1');
  });
});
