/**
 * What a deprecated route's answers say about it (docs/versioning.md): `Deprecation` (RFC 9745: `@`
 * and the Unix time it was deprecated) and `Sunset` (RFC 8594: the HTTP date after which it may be
 * gone).
 */
import type { RouteDefinition } from '#functions/routes';

export function deprecationHeaders(route: Pick<RouteDefinition, 'deprecated'>): Record<string, string> {
  if (!route.deprecated) return {};
  const { since, sunset } = route.deprecated;
  return { deprecation: `@${Math.floor(Date.parse(`${since}T00:00:00Z`) / 1000)}`, sunset: new Date(`${sunset}T00:00:00Z`).toUTCString() };
}
