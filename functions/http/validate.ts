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
  throw badRequest(`Invalid ${what}: ${details}`, fieldAtFault(result.error.issues[0]));
}

/** The first offending field as `param` names it (`metadata.campaign`, `variants.2.hook_text`); undefined for the body as a whole. */
function fieldAtFault(issue: z.core.$ZodIssue | undefined): string | undefined {
  if (!issue) return undefined;
  const path = issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined ? [...issue.path, issue.keys[0]] : issue.path;
  return path.length ? path.map(String).join('.') : undefined;
}
