/** How provider_b's list endpoints read their query (repeatable filters, limit/offset) and page their answer. */
import type { SandboxResponse } from '../sandbox-kit';
import { invalid } from './contract';
import type { ProviderBState } from './state';

/** Repeatable query filters: `?x=a&x=b`, `?x[]=a`, and `?x=a,b` all give [a, b]. */
export function multi(query: URLSearchParams, name: string): string[] | undefined {
  const values = [...query.getAll(name), ...query.getAll(`${name}[]`)].flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  return values.length > 0 ? values : undefined;
}

export function paging(query: URLSearchParams): { limit: number; offset: number } | SandboxResponse {
  const errors: string[] = [];
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      errors.push(`${name} must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };
  const limit = read('limit', 50, 1, 100);
  const offset = read('offset', 0, 0, Number.MAX_SAFE_INTEGER);
  return errors.length > 0 ? invalid(errors) : { limit, offset };
}
export function listEnvelope<T>(s: ProviderBState, items: T[], page: { limit: number; offset: number }, url: URL): SandboxResponse {
  const data = items.slice(page.offset, page.offset + page.limit);
  let next: string | null = null;
  if (page.offset + page.limit < items.length) {
    const nextUrl = new URL(url.pathname + url.search, s.origin);
    nextUrl.searchParams.set('offset', String(page.offset + page.limit));
    nextUrl.searchParams.set('limit', String(page.limit));
    next = nextUrl.toString();
  }
  return { status: 200, body: { data, meta: { limit: page.limit, offset: page.offset, total: items.length, next } } };
}
