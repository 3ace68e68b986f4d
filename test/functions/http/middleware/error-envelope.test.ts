/** The error envelope's bookkeeping: refusals of a body or file are counted by reason. */
import { AppError } from '#domain/errors';
import { errorEnvelope } from '#http/middleware/error-envelope';
import type { ApiRequest } from '#http/api-types';
import { RecordingMetrics } from '#test-doubles/memory/metrics';

/** An API function's envelope counts in its ports' metrics; the public routes' (`counting: false`) reach no port. */
function fail(error: Error, api: Partial<ApiRequest> | undefined, counting = true) {
  const envelope = counting ? errorEnvelope<ApiRequest['deps']>((deps) => deps.metrics) : errorEnvelope<ApiRequest['deps']>();
  const request = { event: {}, context: { api }, error, response: undefined, internal: {} } as never as Parameters<NonNullable<typeof envelope['onError']>>[0];
  void envelope.onError!(request);
  return request.response as { statusCode: number; body: string };
}

const principal = { accountId: 1, scopes: ['write'], credential: { kind: 'api_key', keyId: 1 } } as ApiRequest['principal'];

describe('errorEnvelope', () => {
  test('counts each refusal of an authenticated request\'s body or file by its reason, and answers it', () => {
    const metrics = new RecordingMetrics();
    const api = { requestId: 'r-1', principal, deps: { metrics } as never };
    for (const code of ['payload_too_large', 'unsupported_media_type', 'invalid_media'] as const) {
      expect(fail(new AppError(code, 'no'), api).statusCode).toBe({ payload_too_large: 413, unsupported_media_type: 415, invalid_media: 422 }[code]);
    }
    expect(metrics.events).toEqual([
      { name: 'UploadsRefused', reason: 'payload_too_large' },
      { name: 'UploadsRefused', reason: 'unsupported_media_type' },
      { name: 'UploadsRefused', reason: 'invalid_media' },
    ]);
  });

  test('other refusals, and requests refused before authentication, are not counted', () => {
    const metrics = new RecordingMetrics();
    fail(new AppError('not_found', 'no'), { requestId: 'r-2', principal, deps: { metrics } as never });
    expect(fail(new AppError('payload_too_large', 'no'), { requestId: 'r-3', deps: { metrics } as never }).statusCode).toBe(413);
    expect(metrics.events).toEqual([]);
  });

  test('an envelope given no metrics (the public routes\' function) answers refusals without counting them', () => {
    const metrics = new RecordingMetrics();
    expect(fail(new AppError('payload_too_large', 'no'), { requestId: 'r-4', principal, deps: { metrics } as never }, false).statusCode).toBe(413);
    expect(metrics.events).toEqual([]);
  });
});
