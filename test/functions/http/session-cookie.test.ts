/**
 * The session cookie's same-origin rule: locally the page and the API share the Host; on AWS the
 * studio's CloudFront distribution forwards its own host in x-forwarded-host.
 */
import { isSameOrigin, setSessionCookie, studioOrigin } from '#http/session-cookie';
import type { ApiEvent } from '#http/api-types';

const event = (headers: Record<string, string>) => ({ headers }) as unknown as ApiEvent;

describe('isSameOrigin', () => {
  test('locally: the Origin of the page the API itself served, over http on loopback', () => {
    expect(isSameOrigin(event({ host: '127.0.0.1:3000' }), 'http://127.0.0.1:3000')).toBe(true);
    expect(isSameOrigin(event({ host: '127.0.0.1:3000' }), 'http://127.0.0.1:3001')).toBe(false);
    expect(isSameOrigin(event({ host: '127.0.0.1:3000' }), 'https://evil.example')).toBe(false);
  });

  test('behind the studio distribution: the forwarded host counts, over https only', () => {
    const behindCdn = event({ host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'd111.cloudfront.net', 'x-forwarded-proto': 'https' });
    expect(isSameOrigin(behindCdn, 'https://d111.cloudfront.net')).toBe(true);
    expect(isSameOrigin(behindCdn, 'http://d111.cloudfront.net')).toBe(false);
    expect(isSameOrigin(behindCdn, 'https://abc123.execute-api.eu-west-1.amazonaws.com')).toBe(false);
    expect(isSameOrigin(behindCdn, 'https://evil.example')).toBe(false);
  });

  test('an Origin that is not a URL is never the same origin', () => {
    expect(isSameOrigin(event({ host: '127.0.0.1:3000' }), 'null')).toBe(false);
    expect(isSameOrigin(event({}), 'http://127.0.0.1:3000')).toBe(false);
  });
});

describe('studioOrigin (where a checkout sends the browser back)', () => {
  test('the local server itself over http, the distribution over https', () => {
    expect(studioOrigin(event({ host: '127.0.0.1:3000' }))).toBe('http://127.0.0.1:3000');
    expect(studioOrigin(event({ host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'D111.cloudfront.net', 'x-forwarded-proto': 'https' }))).toBe('https://d111.cloudfront.net');
  });
});

describe('the cookie', () => {
  test('is Secure behind the distribution, not on plain loopback http', () => {
    expect(setSessionCookie(event({ host: 'abc.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-host': 'd111.cloudfront.net', 'x-forwarded-proto': 'https' }), 't', 60)).toContain('Secure');
    expect(setSessionCookie(event({ host: '127.0.0.1:3000' }), 't', 60)).not.toContain('Secure');
  });
});
