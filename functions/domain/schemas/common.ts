import * as z from 'zod/mini';

/**
 * An id inside a request body: a JSON integer, or (form and multipart fields are text) a string of
 * digits. Anything else is a 400 naming the field.
 */
export const idField = z.union([
  z.int({ error: 'must be a positive integer' }).check(
    z.positive('must be a positive integer'),
    // Classic zod's `.max()` took the schema's message; a check added with .check() needs its own.
    z.maximum(Number.MAX_SAFE_INTEGER, 'must be a positive integer'),
  ),
  z.pipe(z.string().check(z.regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer')), z.transform(Number)),
], { error: 'must be a positive integer' });
