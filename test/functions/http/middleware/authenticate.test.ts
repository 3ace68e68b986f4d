/** The auth middleware against a mocked DynamoDB: what each credential problem answers. */
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { handler as usageHandler } from '#handlers/usage';
import { generateKeyMaterial, hashKey } from '#domain/api-keys';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

process.env.TABLE_NAME = 'unit-table';
const ddb = mockClient(DynamoDBDocumentClient);

function event(authorization?: string): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'GET /api/v1/usage',
    rawPath: '/api/v1/usage',
    rawQueryString: '',
    headers: authorization === undefined ? {} : { authorization },
    requestContext: { requestId: 'req-1', http: { method: 'GET', path: '/api/v1/usage' } } as never,
    isBase64Encoded: false,
  };
}

const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const call = async (authorization?: string) => {
  const result = (await usageHandler(event(authorization), context)) as { statusCode: number; body: string; headers: Record<string, string> };
  return { status: result.statusCode, body: JSON.parse(result.body), headers: result.headers };
};

beforeEach(() => ddb.reset());

describe('authentication (unit)', () => {
  test('no Authorization header is 401 without touching the table', async () => {
    const res = await call();
    expect(res).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(res.headers['x-request-id']).toBe('req-1');
    expect(ddb.calls()).toHaveLength(0);
  });

  test('a malformed key is 401 without touching the table', async () => {
    expect(await call('Bearer abc')).toMatchObject({ status: 401 });
    expect(ddb.calls()).toHaveLength(0);
  });

  test('the lookup is by hash, strongly consistent; a revoked key is 401', async () => {
    const key = generateKeyMaterial();
    ddb.on(GetCommand).resolves({
      Item: { id: 1, account_id: 5, prefix: key.prefix, scopes: ['read'], created_at: 'x', revoked_at: '2026-01-01T00:00:00Z' },
    });
    const res = await call(`Bearer ${key.raw}`);
    expect(res).toMatchObject({ status: 401, body: { error: 'This API key has been revoked' } });
    const lookup = ddb.commandCalls(GetCommand)[0]!.args[0].input;
    expect(lookup).toMatchObject({ Key: { pk: `APIKEY#${hashKey(key.raw)}` }, ConsistentRead: true });
  });

  test('a failure of the store is a 500 that shows only the request id', async () => {
    const key = generateKeyMaterial();
    ddb.on(GetCommand).rejects(new Error('connection reset by peer at 10.0.0.12'));
    ddb.on(TransactWriteCommand).resolves({});
    const res = await call(`Bearer ${key.raw}`);
    expect(res).toEqual({
      status: 500,
      body: { error: 'Internal server error', code: 'internal_error', request_id: 'req-1' },
      headers: expect.objectContaining({ 'x-request-id': 'req-1' }),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/10\.0\.0\.12|stack/);
  });
});
