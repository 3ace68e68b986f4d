/** zod parsing that fails as a 400 naming each offending field. */
import type * as z from 'zod/mini';
import { badRequest } from '#domain/errors';

export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown, what = 'request'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues
    .slice(0, 5)
    .map((issue) => {
      if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`;
      const field = issue.path.join('.');
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
  throw badRequest(`Invalid ${what}: ${details}`);
}
