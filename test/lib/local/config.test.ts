/** `npm start` reads its settings once, before anything starts, and names the one that is wrong. */
import { serveConfig } from '#local/config';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';

describe('serveConfig', () => {
  test('unset (or empty) is port 3000, the contract rate limit and the full 30-day preview wait', () => {
    for (const env of [{}, { PORT: '', RATE_LIMIT_PER_MINUTE: '', PREVIEW_EXPIRY_SECONDS: ' ' }]) {
      expect(serveConfig(env)).toEqual({ port: 3000, dataDir: undefined, rateLimitPerMinute: 120, previewWaitS: PREVIEW_WAIT_MAX_S });
    }
    expect(PREVIEW_WAIT_MAX_S).toBe(30 * 24 * 3600);
  });

  test('takes what is set; a preview wait past 30 days is capped at what the state machine waits', () => {
    expect(serveConfig({ PORT: '0', DATA_DIR: '/tmp/rs', RATE_LIMIT_PER_MINUTE: '100000', PREVIEW_EXPIRY_SECONDS: '3' })).toEqual({
      port: 0,
      dataDir: '/tmp/rs',
      rateLimitPerMinute: 100000,
      previewWaitS: 3,
    });
    expect(serveConfig({ PREVIEW_EXPIRY_SECONDS: String(PREVIEW_WAIT_MAX_S * 2) }).previewWaitS).toBe(PREVIEW_WAIT_MAX_S);
  });

  test.each([
    [{ PORT: '70000' }, /PORT/],
    [{ PORT: 'http' }, /PORT must be a whole number, not http/],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, /RATE_LIMIT_PER_MINUTE/],
    [{ PREVIEW_EXPIRY_SECONDS: 'soon' }, /PREVIEW_EXPIRY_SECONDS must be a whole number, not soon/],
  ])('%j stops the start, naming the variable', (env, message) => {
    expect(() => serveConfig(env)).toThrow(message);
  });
});
