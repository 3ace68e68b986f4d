/** Products: the subject of every reaction video, with an optional demo clip (vertical, or reframed to be); or the built-in sample product. */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam, pageMeta, pageParams } from '#http/params';
import { created, deleted, ok } from '#http/respond';
import { badRequest, notFound } from '#domain/errors';
import { logger } from '#functions/logger';
import { createProductInput, createSampleProductInput, updateProductInput } from '#domain/schemas/product';
import { demoIntakeOf } from '#domain/demo-intake';
import type { Product } from '#domain/product';
import { presentProduct } from '#use-cases/present-records';
import { createProduct } from '#use-cases/create-product';
import { updateProduct } from '#use-cases/update-product';
import { removeProduct } from '#use-cases/remove-product';
import { createSampleProduct } from '#use-cases/create-sample-product';
import { answeredOnce } from './answered-once';

type Reads = Pick<Ports, 'products' | 'blobs'>;

const present = (request: AuthenticatedRequest<Pick<Ports, 'blobs'>>, product: Product) => presentProduct(request.deps.blobs, product);

const list: Operation<Reads> = async (request) => {
  const page = pageParams(request);
  const slice = await request.deps.products.list(request.principal.accountId, page.page, page.perPage);
  return ok(await Promise.all(slice.items.map((product) => present(request, product))), 200, pageMeta(page, slice.total));
};

const create: Operation<NeedsOf<typeof createProduct> & Reads> = async (request) => {
  const body = await readRouteBody(request);
  try {
    const { demo_video_upload_id: uploadId, demo_video_url: url, reframe, demo_start_s, demo_end_s, ...input } = parseInput(createProductInput, body.fields, 'product');
    const file = body.files.demo_video;
    const given = [file && { path: file.path }, uploadId && { uploadId }, url && { url }].filter((source) => !!source);
    if (given.length > 1) throw badRequest('Send one of a demo_video file, demo_video_upload_id or demo_video_url, not several');
    const demo = given[0];
    const intake = demoIntakeOf({ reframe, demo_start_s, demo_end_s });
    const product = await createProduct({ ...request.deps, log: logger }, { accountId: request.principal.accountId, ...input, demo, intake });
    return created(await present(request, product));
  } finally {
    await body.cleanup();
  }
};

const createSample: Operation<NeedsOf<typeof createSampleProduct> & Reads> = async (request) => {
  const body = await readRouteBody(request);
  parseInput(createSampleProductInput, body.fields, 'sample product');
  return created(await present(request, await createSampleProduct(request.deps, { accountId: request.principal.accountId })));
};

const get: Operation<Reads> = async (request) => {
  const product = await request.deps.products.get(request.principal.accountId, idParam(request));
  if (!product) throw notFound('Product');
  return ok(await present(request, product));
};

const update: Operation<NeedsOf<typeof updateProduct> & Reads> = async (request) => {
  const productId = idParam(request);
  const body = await readRouteBody(request);
  try {
    const changes = parseInput(updateProductInput, body.fields, 'product update');
    return ok(await present(request, await updateProduct(request.deps, { accountId: request.principal.accountId, productId, changes })));
  } finally {
    await body.cleanup();
  }
};

const remove: Operation<NeedsOf<typeof removeProduct>> = async (request) => {
  return deleted(await removeProduct(request.deps, { accountId: request.principal.accountId, productId: idParam(request) }));
};

export const productOperations = { list, create: answeredOnce(create), createSample: answeredOnce(createSample), get, update, remove };
