/**
 * On AWS a file part reaches the function only up to what API Gateway and Lambda carry: past the
 * configured inline limit a multipart body is a 413 that points to POST /uploads. Unset (locally), the
 * route table's sizes hold.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { readRouteBody } from '#http/body';
import type { ApiRequest } from '#http/api-types';
import { routeByKey } from '#functions/routes';
import { settingsFromEnv } from '#functions/config';
import { INLINE_UPLOAD_ENV } from '#cloud/api';
import { AWS_INLINE_UPLOAD_MAX_BYTES } from '#domain/uploads';
import { multipartBody } from '#test-support/hostile-requests';
import { testDependencies } from '#test-support/wiring';

const createProduct = routeByKey('POST /api/v1/products')!;

function request(event: { body: Buffer; contentType: string }, inlineUploadMaxBytes: number | undefined): ApiRequest {
  return {
    event: { headers: { 'content-type': event.contentType }, body: event.body.toString('base64'), isBase64Encoded: true } as unknown as APIGatewayProxyEventV2,
    route: createProduct,
    requestId: 'test',
    pathParameters: {},
    query: {},
    responseHeaders: {},
    pending: [],
    deps: testDependencies({ inlineUploadMaxBytes }),
  };
}

const withDemo = (bytes: number) => multipartBody([{ name: 'name', value: 'Lamp' }, { name: 'demo_video', filename: 'demo.mp4', value: Buffer.alloc(bytes, 1) }]);

describe('the inline upload limit', () => {
  test('a multipart body past it is 413 naming POST /uploads', async () => {
    const { body, contentType } = withDemo(2000);
    await expect(readRouteBody(request({ body, contentType }, 1000))).rejects.toMatchObject({ status: 413, code: 'payload_too_large', message: expect.stringContaining('POST /uploads') });
  });

  test('a multipart body within it, and any body where it is unset, is read as before', async () => {
    const { body, contentType } = withDemo(2000);
    for (const limit of [body.length, undefined]) {
      const parsed = await readRouteBody(request({ body, contentType }, limit));
      expect(parsed.files.demo_video?.size).toBe(2000);
      await parsed.cleanup();
    }
  });

  test('a JSON body is not an upload: the limit does not apply to it', async () => {
    const parsed = await readRouteBody(request({ body: Buffer.from(JSON.stringify({ name: 'x'.repeat(200) })), contentType: 'application/json' }, 10));
    expect(parsed.fields).toEqual({ name: 'x'.repeat(200) });
  });

  test('the stack sets it for the API functions; a Lambda reads it from its environment', () => {
    const env = { TABLE_NAME: 't', BUCKET_NAME: 'b' };
    expect(settingsFromEnv(env).inlineUploadMaxBytes).toBeUndefined();
    expect(settingsFromEnv({ ...env, [INLINE_UPLOAD_ENV]: String(AWS_INLINE_UPLOAD_MAX_BYTES) }).inlineUploadMaxBytes).toBe(4 * 1024 * 1024);
    expect(() => settingsFromEnv({ ...env, [INLINE_UPLOAD_ENV]: '4MB' })).toThrow(/INLINE_UPLOAD_MAX_BYTES/);
  });
});
