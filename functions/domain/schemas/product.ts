/** Product inputs (API.md §2) as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { withoutControlCharacters } from './common';

const name = z
  .string({ error: 'must be a string' })
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(200, 'must be at most 200 characters'),
    withoutControlCharacters('line'),
  );
const description = z
  .string({ error: 'must be a string' })
  .check(z.trim(), z.maxLength(2000, 'must be at most 2000 characters'), withoutControlCharacters('text'));

export const createProductInput = z.strictObject({
  name,
  description: z.optional(description),
});

export const updateProductInput = z
  .strictObject({
    name: z.optional(name),
    /** `null` clears the description. */
    description: z.optional(z.nullable(description)),
  })
  .check(
    z.refine((v) => v.name !== undefined || v.description !== undefined, {
      message: 'send at least one of name, description',
    }),
  );

export type CreateProductInput = z.infer<typeof createProductInput>;
export type UpdateProductInput = z.infer<typeof updateProductInput>;
