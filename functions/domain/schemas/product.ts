/** Product inputs (API.md §2) as zod schemas: validation and types come from here. */
import * as z from 'zod';

const name = z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const description = z.string({ error: 'must be a string' }).trim().max(2000, 'must be at most 2000 characters');

export const createProductInput = z.strictObject({
  name,
  description: description.optional(),
});

export const updateProductInput = z
  .strictObject({
    name: name.optional(),
    /** `null` clears the description. */
    description: description.nullable().optional(),
  })
  .refine((v) => v.name !== undefined || v.description !== undefined, {
    message: 'send at least one of name, description',
  });

export type CreateProductInput = z.infer<typeof createProductInput>;
export type UpdateProductInput = z.infer<typeof updateProductInput>;
