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
/** `schema` with what it means, as the API description shows it beside the field. */
export const meaning = <T extends z.ZodMiniType>(schema: T, description: string): T => schema.check(z.meta({ description }));
/** When a record was made, and last changed. */
export const createdAt = meaning(timestamp, 'When it was created');
export const updatedAt = meaning(timestamp, 'When it last changed');
/** Whether a record is test data (made with a test key, seen only with one: docs/decisions.md, Test mode). */
export const testRecord = meaning(z.boolean(), 'Made with a test key (`rsk_test_…`): test data, seen only with test keys; its video is watermarked TEST and used no allowance');
/** What went wrong with a background step, in words fit for the client. */
export const failure = z.object({
  code: meaning(z.string(), 'What went wrong, as a code to branch on'),
  message: meaning(z.string(), 'What went wrong and what to do, in words fit to show'),
});

export const errorEnvelope = z
  .object({
    error: z.string().check(z.meta({ description: 'What went wrong, fit to show; 500s say only "Internal server error"' })),
    code: z
      .enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]])
      .check(z.meta({ description: 'What went wrong, as a code to branch on: the error reference (`doc_url`) says what each means and what to do' })),
    param: z.optional(z.string().check(z.meta({ description: 'The request field at fault, as a dotted path (`hook_text`, `metadata.campaign`, `variants.2.hook_text`); absent when the problem is not one field' }))),
    request_id: z.string().check(z.meta({ description: "This request's id, also in the `x-request-id` header: quote it to support" })),
    doc_url: z.string().check(z.meta({ description: "The code's entry in the served error reference (`/api/v1/docs/errors#<code>`), relative to the API's host" })),
  })
  .register(z.globalRegistry, { id: 'ErrorEnvelope', description: 'Every error answer, whatever the status' });

export const pageMeta = z
  .object({
    page: meaning(z.int().check(z.positive()), 'This page (from 1)'),
    per_page: meaning(z.int().check(z.positive()), 'Items a page holds'),
    total: meaning(z.int().check(z.nonnegative()), 'Items in the whole list'),
  })
  .register(z.globalRegistry, { id: 'PageMeta', description: 'Where a page of a list is; a page past the end is empty' });

export const deletedRecord = z
  .object({ id: meaning(recordId, 'The id of the record deleted'), deleted: meaning(z.literal(true), 'Always true') })
  .register(z.globalRegistry, { id: 'Deleted', description: 'A record deleted, or gone before an event about it was sent' });

export const cursorMeta = z
  .object({
    limit: meaning(z.int().check(z.positive()), 'Items a slice holds at most (the `limit` asked for)'),
    next_before: z.nullable(recordId).check(z.meta({ description: 'Pass as `before` for the next, older slice; null at the end' })),
  })
  .register(z.globalRegistry, { id: 'CursorMeta', description: 'Where a newest-first slice of a list ends' });

/** `{data: T}`. */
export const dataOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: schema });
/** `{data: T[], meta: {page, per_page, total}}`. */
export const pageOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: z.array(schema), meta: pageMeta });
/** `{data: T[], meta: {limit, next_before}}`. */
export const sliceOf = <T extends z.ZodMiniType>(schema: T) => z.object({ data: z.array(schema), meta: cursorMeta });
