import type { ApiEvent } from '#http/api-types';
import { idempotencyKeyOf, requestHashOf } from '#http/idempotency-key';

const event = (fields: { method?: string; path?: string; contentType?: string; body?: string; base64?: boolean; key?: string }): ApiEvent =>
  ({
    rawPath: fields.path ?? '/api/v1/products',
    requestContext: { http: { method: fields.method ?? 'POST' } },
    headers: { ...(fields.contentType ? { 'content-type': fields.contentType } : {}), ...(fields.key !== undefined ? { 'idempotency-key': fields.key } : {}) },
    body: fields.body,
    isBase64Encoded: fields.base64 ?? false,
  }) as unknown as ApiEvent;

const form = (boundary: string, name: string) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n--${boundary}\r\nContent-Disposition: form-data; name="demo_video"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n\u0000\u0001binary\r\n--${boundary}--\r\n`;

describe('the Idempotency-Key header', () => {
  test('is optional, and when sent must be 1-255 visible ASCII characters (400 naming the header otherwise)', () => {
    expect(idempotencyKeyOf(event({}))).toBeUndefined();
    expect(idempotencyKeyOf(event({ key: '5f0c7d2e-8a1b-4c3d-9e2f-1a2b3c4d5e6f' }))).toBe('5f0c7d2e-8a1b-4c3d-9e2f-1a2b3c4d5e6f');
    for (const bad of ['', 'a b', 'x'.repeat(256), 'caf\u00e9']) {
      expect(() => idempotencyKeyOf(event({ key: bad }))).toThrow(expect.objectContaining({ code: 'bad_request', param: 'Idempotency-Key' }));
    }
  });
});

describe('what makes two requests the same', () => {
  test('the same form sent twice with new multipart boundaries is the same request', () => {
    const a = event({ contentType: 'multipart/form-data; boundary=----a1', body: Buffer.from(form('----a1', 'Glow')).toString('base64'), base64: true });
    const b = event({ contentType: 'multipart/form-data; boundary="----zz9"', body: Buffer.from(form('----zz9', 'Glow')).toString('base64'), base64: true });
    expect(requestHashOf(a)).toBe(requestHashOf(b));
  });

  test('another field value, path, method or media type is another request', () => {
    const base = event({ contentType: 'application/json', body: '{"name":"Glow"}' });
    for (const other of [
      event({ contentType: 'application/json', body: '{"name":"Glo"}' }),
      event({ contentType: 'application/json', body: '{"name":"Glow"}', path: '/api/v1/webhooks' }),
      event({ contentType: 'application/json', body: '{"name":"Glow"}', method: 'PUT' }),
      event({ contentType: 'application/x-www-form-urlencoded', body: '{"name":"Glow"}' }),
    ]) {
      expect(requestHashOf(other)).not.toBe(requestHashOf(base));
    }
    expect(requestHashOf(event({ contentType: 'application/json; charset=utf-8', body: '{"name":"Glow"}' }))).toBe(requestHashOf(base));
  });
});
