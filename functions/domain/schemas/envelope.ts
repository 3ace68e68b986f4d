/**
 * The shapes every answer shares: `{data}` and `{data, meta}` for success, `{error, code, param?,
 * request_id, doc_url}` for failure, and the field kinds records are made of. The API description (functions/openapi) is built
 * from these, and the e2e tests check every answer against it.
 */
import * as z from 'zod/mini';
import { ERROR_CODES } from '#domain/errors';

/** A record id: a positive integer. */
export const recordId = z.int().check(z.positive());
/** An instant as the service writes it (`Date.prototype.toISOString`, UTC). */
export const timestamp = z.iso.datetime();
/** A presigned link: valid until the `*_expires_at` beside it. */
export const link = z.url();
/** What went wrong with a background step, in words fit for the client. */
export const failure = z.object({ code: z.string(), message: z.string() });

export const errorEnvelope = z
  .object({
    error: z.string().check(z.meta({ description: 'What went wrong, fit to show; 500s say only "Internal server error"' })),
    code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]]),
    param: z.optional(z.string().check(z.meta({ description: 'The request field at fault, as a dotted path (`hook_text`, `metadata.campaign`, `variants.2.hook_text`); absent when the problem is not one field' }))),
    request_id: z.string().check(z.meta({ description: "This request's id, also in the `x-request-id` header: quote it to support" })),
    doc_url: z.string().check(z.meta({ description: "The code's entry in the served error reference (`/api/v1/docs/errors#<code>`), relative to the API's host" })),
  })
  .register(z.globalRegistry, { id: 'ErrorEnvelope', description: 'Every error answer, whatever the status' });

export const pageMeta = z
  .object({ page: z.int().check(z.positive()), per_page: z.int().check(z.positive()), total: z.int().check(z.nonnegative()) })
  .register(z.globalRegistry, { id: 'PageMeta', description: 'Where a page of a list is; a page past the end is empty' });

export const deletedRecord = z
  .object({ id: recordId, deleted: z.literal(true) })
  .register(z.globalRegistry, { id: 'Deleted' });

export const cursorMeta = z
  .object({
    limit: z.int().check(z.positive()),
    next_before: z.nullable(recordId).check(z.meta({ description: 'Pass as `before` for the next, older slice; null at the end' })),
  })
  .register(z.globalRegistry, { id: 'CursorMeta', description: 'Where a newest-first slice of a list ends' });

/** `{data: T}`. */
export const dataOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });
/** `{data: T[], meta: {page, per_page, total}}`. */
export const pageOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: z.array(schema), meta: pageMeta });
/** `{data: T[], meta: {limit, next_before}}`. */
export const sliceOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: z.array(schema), meta: cursorMeta });
