import { HANDLER_GROUPS, ROUTES, fullPath, matchRoute, routeByKey, routeKey } from '#functions/routes';

/** Routes that publish or change what may be published on the account's social channels. */
const PUBLISHING = new Set(
  ([
    ['PUT', '/social/connections/{provider}'],
    ['DELETE', '/social/connections/{provider}'],
    ['POST', '/social/accounts/sync'],
    ['POST', '/social/posts'],
    ['DELETE', '/social/posts/{id}'],
  ] as const).map(([method, path]) => routeKey({ method, path })),
);

/** The studio's own routes: a signed-in session only, never a key (a key cannot mint keys). */
const SESSION_ONLY = new Set(
  ['POST /auth/logout', 'GET /auth/session', 'POST /auth/password', 'GET /keys', 'POST /keys', 'DELETE /keys/{id}', 'PUT /account/plan'].map((key) => {
    const [method, path] = key.split(' ') as ['GET' | 'POST' | 'PUT' | 'DELETE', string];
    return routeKey({ method, path });
  }),
);

describe('the route table', () => {
  test('every route key is unique and resolves back to its route', () => {
    const keys = ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of ROUTES) expect(routeByKey(routeKey(route))).toBe(route);
  });

  test('every route belongs to a declared handler group', () => {
    for (const route of ROUTES) expect(Object.keys(HANDLER_GROUPS)).toContain(route.group);
  });

  test('GET / lives at the version prefix, with or without a trailing slash', () => {
    expect(fullPath('/')).toBe('/api/v1');
    for (const path of ['/api/v1', '/api/v1/']) {
      const match = matchRoute('GET', path);
      expect(match.kind === 'matched' && match.route.operation).toBe('liveness');
    }
  });

  test('path parameters are extracted and decoded', () => {
    const match = matchRoute('PATCH', '/api/v1/products/42');
    expect(match).toMatchObject({ kind: 'matched', pathParameters: { id: '42' } });
  });

  test('a known path with an unknown method lists the allowed ones; an unknown path is not found', () => {
    expect(matchRoute('DELETE', '/api/v1/products')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'POST'] });
    expect(matchRoute('GET', '/api/v1/nothing')).toEqual({ kind: 'not_found' });
    expect(matchRoute('GET', '/api/v2/products')).toEqual({ kind: 'not_found' });
  });

  /** POSTs that change nothing of the account's: a caption drawn (a body only for size's sake), a ticket to read live updates with. */
  const READS_BY_POST = new Set(['POST /api/v1/captions/preview', 'POST /api/v1/updates/tickets']);

  test('a literal path with no route for the method falls to the parameter route that has one, as API Gateway matches', () => {
    expect(matchRoute('GET', '/api/v1/products/sample')).toMatchObject({ kind: 'matched', route: { method: 'GET', path: '/products/{id}' }, pathParameters: { id: 'sample' } });
    expect(matchRoute('POST', '/api/v1/products/sample')).toMatchObject({ kind: 'matched', route: { method: 'POST', path: '/products/sample' } });
    expect(matchRoute('GET', '/api/v1/videos/jobs')).toMatchObject({ kind: 'matched', route: { path: '/videos/jobs' } });
    expect(matchRoute('PATCH', '/api/v1/videos/jobs')).toMatchObject({ kind: 'method_not_allowed', allow: ['GET'] });
  });

  test('writes need the write scope and reads the read scope; only the meta routes (liveness, the API description and the error reference), sign-up, sign-in, password reset, the plan table, Stripe\'s webhook and fal\'s job callbacks (their ticket is their credential) are public', () => {
    expect(ROUTES.filter((r) => r.auth === 'none').map(routeKey)).toEqual([
      'GET /api/v1',
      'GET /api/v1/openapi.json',
      'GET /api/v1/docs',
      'GET /api/v1/docs/reference.js',
      'GET /api/v1/docs/reference.css',
      'GET /api/v1/docs/errors',
      'POST /api/v1/engines/fal/callbacks/{ticket}',
      'GET /api/v1/plans',
      'POST /api/v1/billing/stripe/webhook',
      'POST /api/v1/auth/signup',
      'POST /api/v1/auth/login',
      'POST /api/v1/auth/password-reset',
      'POST /api/v1/auth/password-reset/confirm',
    ]);
    for (const route of ROUTES) {
      if (route.group === 'meta' || route.auth === 'none') {
        expect(route.auth).toBe('none');
        continue;
      }
      if (SESSION_ONLY.has(routeKey(route))) {
        expect(route.auth).toBe('session');
        expect(route.scopes).toEqual([]);
        continue;
      }
      expect(route.auth).toBe('required');
      if (PUBLISHING.has(routeKey(route))) continue;
      expect(route.scopes).toEqual([route.method === 'GET' || READS_BY_POST.has(routeKey(route)) ? 'read' : 'write']);
    }
  });

  test('acting on social channels needs the publish scope; reading posts and connections does not', () => {
    for (const route of ROUTES.filter((r) => r.path.startsWith('/social'))) {
      expect(route.scopes).toEqual([PUBLISHING.has(routeKey(route)) ? 'publish' : 'read']);
    }
    expect(PUBLISHING.size).toBe(5);
  });
});
