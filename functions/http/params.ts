/** Path and query parameters shared by every resource: integer ids, page-based pagination, dry runs. */
import { badRequest } from '#domain/errors';
import type { ApiRequest } from './api-types';

const POSITIVE_INTEGER = /^[1-9][0-9]{0,14}$/;

export function idParam(request: ApiRequest<unknown>, name = 'id'): number {
  const raw = request.pathParameters[name];
  if (raw === undefined || !POSITIVE_INTEGER.test(raw)) throw badRequest(`Path parameter ${name} must be a positive integer`);
  return Number(raw);
}

export interface PageRequest {
  page: number;
  perPage: number;
}

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;
/** Offsets beyond this are refused rather than scanned. */
export const PAGE_MAX = 100_000;

export function pageParams(request: ApiRequest<unknown>): PageRequest {
  return {
    page: boundedInt(request.query.page, 'page', 1, 1, PAGE_MAX),
    perPage: boundedInt(request.query.per_page, 'per_page', PER_PAGE_DEFAULT, 1, PER_PAGE_MAX),
  };
}

function boundedInt(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^[0-9]{1,9}$/.test(raw)) throw badRequest(`Query parameter ${name} must be an integer from ${min} to ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw badRequest(`Query parameter ${name} must be an integer from ${min} to ${max}`);
  return value;
}

export interface SliceRequest {
  limit: number;
  before?: number;
}

/** `limit` of a cursor-following list: how many items at most. */
export const sliceLimit = (request: Pick<ApiRequest<unknown>, 'query'>): number => boundedInt(request.query.limit, 'limit', PER_PAGE_DEFAULT, 1, PER_PAGE_MAX);

export function sliceParams(request: ApiRequest<unknown>): SliceRequest {
  const limit = sliceLimit(request);
  const before = request.query.before === undefined ? undefined : boundedInt(request.query.before, 'before', 1, 1, 999_999_999);
  return { limit, ...(before === undefined ? {} : { before }) };
}

export function pageMeta(page: PageRequest, total: number) {
  return { page: page.page, per_page: page.perPage, total };
}

/** `dry_run` on the routes that take it: `true` checks and quotes without doing, `false` (the default) does; anything else is 400. */
export function dryRunParam(request: Pick<ApiRequest<unknown>, 'query'>): boolean {
  const raw = request.query.dry_run;
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw badRequest('Query parameter dry_run must be true or false');
}

/** A dry run as the middlewares see it (any other value is the operation's 400, counted as a request). */
export const isDryRun = (request: Pick<ApiRequest<unknown>, 'query' | 'route'>): boolean => request.route.query?.includes('dry_run') === true && request.query.dry_run === 'true';
