import * as z from 'zod';

/**
 * An id inside a request body: a JSON integer, or (form and multipart fields are text) a string of
 * digits. Anything else is a 400 naming the field.
 */
export const idField = z.union([
  z.int({ error: 'must be a positive integer' }).positive('must be a positive integer').max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer')
    .transform(Number),
], { error: 'must be a positive integer' });
