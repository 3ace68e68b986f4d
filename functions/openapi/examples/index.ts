/**
 * An example of every answer's body, found from its schema: a record's schema has its sample (the
 * modules beside this one), and the wrappers the answers are made of (`{data}`, a page, a slice, a
 * list) are filled from their parts. An answer no sample reaches names its example in its contract.
 */
import type { ZodMiniType } from 'zod/mini';
import { pageMeta, cursorMeta } from '#domain/schemas/envelope';
import { ACCOUNT_SAMPLES } from './accounts';
import { MEDIA_SAMPLES } from './media';
import { SOCIAL_SAMPLES } from './social';
import { WEBHOOK_SAMPLES } from './webhooks';
import { sample, type Sample } from './sample';

export const SAMPLES: readonly Sample[] = [
  ...MEDIA_SAMPLES,
  ...ACCOUNT_SAMPLES,
  ...SOCIAL_SAMPLES,
  ...WEBHOOK_SAMPLES,
  sample(pageMeta, { page: 1, per_page: 20, total: 1 }),
  sample(cursorMeta, { limit: 20, next_before: null }),
];

const BY_SCHEMA = new Map<ZodMiniType, unknown>(SAMPLES.map((s) => [s.schema, s.value]));

interface Def {
  type: string;
  shape?: Record<string, ZodMiniType>;
  element?: ZodMiniType;
}

/** The schema's example, or undefined where no sample reaches it. */
export function exampleOf(schema: ZodMiniType): unknown {
  if (BY_SCHEMA.has(schema)) return BY_SCHEMA.get(schema);
  const def = schema._zod.def as Def;
  if (def.type === 'array' && def.element) {
    const item = exampleOf(def.element);
    return item === undefined ? undefined : [item];
  }
  if (def.type === 'object' && def.shape) {
    const entries = Object.entries(def.shape).map(([key, field]) => [key, exampleOf(field)] as const);
    return entries.every(([, value]) => value !== undefined) ? Object.fromEntries(entries) : undefined;
  }
  return undefined;
}

export { eventExample } from './webhooks';
