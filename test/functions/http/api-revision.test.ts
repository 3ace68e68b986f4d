/**
 * The API's revision: one date, on every answer (`Reaction-Studio-Version`, a success and a refusal
 * alike), in the API description's `info.version`, in GET /, and as the changelog's newest entry;
 * and what a deprecated route's answers say (RFC 9745 `Deprecation`, RFC 8594 `Sunset`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { API_REVISION } from '#functions/routes';
import { deprecationHeaders } from '#http/deprecation';
import { buildOpenApiDocument } from '#functions/openapi/document';
import { createHandler } from '#handlers/meta';

const ROOT = resolve(__dirname, '..', '..', '..');
const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const event = (routeKey: string, path: string): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: {},
    requestContext: { requestId: 'req-1', http: { method: 'GET', path } },
    isBase64Encoded: false,
  }) as never;

test('every answer says the revision: a success and a refusal alike', async () => {
  const handler = createHandler(undefined, { docsScript: async () => '', docsStyle: async () => '', openapiDocument: async () => '{}' });
  const live = (await handler(event('GET /api/v1', '/api/v1'), context)) as { statusCode: number; headers: Record<string, string>; body: string };
  expect(live.statusCode).toBe(200);
  expect(live.headers['reaction-studio-version']).toBe(API_REVISION);
  expect(JSON.parse(live.body).data).toMatchObject({ version: 'v1', revision: API_REVISION });
  const missing = (await handler(event('$default', '/api/v1/nothing-here'), context)) as { statusCode: number; headers: Record<string, string> };
  expect(missing.statusCode).toBe(404);
  expect(missing.headers['reaction-studio-version']).toBe(API_REVISION);
});

test("the API description's info.version and the changelog's newest entry are the revision", () => {
  expect(buildOpenApiDocument().info.version).toBe(API_REVISION);
  const changelog = readFileSync(resolve(ROOT, 'docs/changelog.md'), 'utf8');
  const dates = [...changelog.matchAll(/^## (\d{4}-\d{2}-\d{2})$/gm)].map((m) => m[1]);
  expect(dates[0]).toBe(API_REVISION);
  // Newest first, one entry per date.
  expect([...dates].sort().reverse()).toEqual(dates);
  expect(new Set(dates).size).toBe(dates.length);
});

test('a deprecated route answers when it was deprecated and when it may be gone; another says nothing', () => {
  expect(deprecationHeaders({ deprecated: { since: '2026-12-01', sunset: '2027-06-01', instead: 'GET /things' } })).toEqual({
    deprecation: '@1796083200',
    sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
  });
  expect(deprecationHeaders({})).toEqual({});
});
