/**
 * The studio's session cookie on the wire. API Gateway (payload 2.0) hands request cookies over in
 * `event.cookies` and takes response cookies in `result.cookies`; the local server does the same.
 */
import { parseCookie, stringifySetCookie, type SetCookie } from 'cookie';
import { SESSION_COOKIE } from '#domain/session';
import type { ApiEvent } from './api-types';

export function sessionTokenOf(event: ApiEvent): string | undefined {
  const cookies = event.cookies ?? (event.headers?.cookie ? [event.headers.cookie] : []);
  if (cookies.length === 0) return undefined;
  return parseCookie(cookies.join('; '))[SESSION_COOKIE];
}

const LOOPBACK_HOST = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])(:\d+)?$/i;

/** `Secure` everywhere but plain http on loopback, where a browser would not send a Secure cookie back. */
function isPlainLoopback(event: ApiEvent): boolean {
  const proto = event.headers?.['x-forwarded-proto'];
  return proto !== 'https' && LOOPBACK_HOST.test(event.headers?.host ?? '');
}

function sessionCookie(event: ApiEvent, value: string, lifetime: Pick<SetCookie, 'maxAge' | 'expires'>): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value, httpOnly: true, sameSite: 'lax', path: '/', secure: !isPlainLoopback(event), ...lifetime });
}

export const setSessionCookie = (event: ApiEvent, token: string, maxAgeS: number) => sessionCookie(event, token, { maxAge: maxAgeS });

export const clearSessionCookie = (event: ApiEvent) => sessionCookie(event, '', { maxAge: 0, expires: new Date(0) });

/**
 * The studio's origin as this request reached it (through the studio's distribution on AWS, the
 * local server's own address locally): where a page the service sends the browser to (a checkout's
 * return) is found.
 */
export function studioOrigin(event: ApiEvent): string {
  const host = event.headers?.['x-forwarded-host'] ?? event.headers?.host ?? '127.0.0.1';
  return `${isPlainLoopback(event) ? 'http' : 'https'}://${host.toLowerCase()}`;
}

/**
 * The origin this request was addressed to, as a browser on the same site would send it in `Origin`.
 * On AWS the studio's CloudFront distribution passes its own host in x-forwarded-host (it overwrites
 * any a viewer sends); API Gateway's Host is then its own. A page of another site cannot set that
 * header at all: a cross-origin request with it needs a CORS preflight, which this API never grants.
 */
export function isSameOrigin(event: ApiEvent, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const host = event.headers?.['x-forwarded-host'] ?? event.headers?.host;
  if (!host || url.host !== host.toLowerCase()) return false;
  const expected = isPlainLoopback(event) ? ['http:', 'https:'] : ['https:'];
  return expected.includes(url.protocol);
}
