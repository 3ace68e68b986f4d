/** Direct uploads: POST /uploads hands out a presigned form; the file goes straight to storage. */
import type { Operation } from '#http/api-types';
import type { NeedsOf } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { created } from '#http/respond';
import { createUploadInput } from '#domain/schemas/upload';
import { uploadView } from '#domain/upload-record';
import { createUpload } from '#use-cases/create-upload';
import { answeredOnce } from './answered-once';

const create: Operation<NeedsOf<typeof createUpload>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(createUploadInput, body.fields, 'upload request');
  const { upload, form } = await createUpload(request.deps, request.principal.accountId, input);
  return created(uploadView(upload, form));
};

export const uploadOperations = { create: answeredOnce(create) };
