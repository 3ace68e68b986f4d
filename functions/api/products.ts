/** Products: the subject of every reaction video, with an optional vertical demo clip. */
import type { AuthenticatedRequest, Operation } from '#http/api-types';
import { readBody } from '#http/body';
import { parseInput } from '#http/validate';
import { idParam, pageMeta, pageParams } from '#http/params';
import { created, deleted, ok } from '#http/respond';
import { notFound } from '#domain/errors';
import { createProductInput, updateProductInput } from '#domain/schemas/product';
import { demoOriginalKey, productObjectPrefix, productView, type Product } from '#domain/product';
import { DEMO_VIDEO_MAX_BYTES } from '#functions/routes';
import * as products from '#adapters/dynamodb/products';
import { deleteKeys, deletePrefix, playbackUrl, putFile } from '#adapters/s3/blob-store';
import { inspectDemoVideo } from '#media/demo-video';

const CONTAINER_TYPES = { mp4: 'video/mp4', mov: 'video/quicktime', avi: 'video/x-msvideo' } as const;

async function present(product: Product) {
  const key = product.demo?.status === 'ready' ? product.demo.key : undefined;
  return productView(product, key ? await playbackUrl(key) : undefined);
}

const list: Operation = async (request) => {
  const page = pageParams(request);
  const slice = await products.listProducts(request.principal.accountId, page.page, page.perPage);
  return ok(await Promise.all(slice.items.map(present)), 200, pageMeta(page, slice.total));
};

const create: Operation = async (request) => {
  const body = await readBody(request.event, {
    accept: ['json', 'form', 'multipart'],
    files: { demo_video: { maxBytes: DEMO_VIDEO_MAX_BYTES, label: 'demo_video' } },
  });
  try {
    const input = parseInput(createProductInput, body.fields, 'product');
    const upload = body.files.demo_video;
    // Everything is checked before anything is written, so a refused upload leaves nothing behind.
    const demoInfo = upload ? await inspectDemoVideo(upload.path) : undefined;
    const accountId = request.principal.accountId;
    const id = await products.newProductId();
    const now = new Date().toISOString();
    const product: Product = {
      id,
      account_id: accountId,
      name: input.name,
      description: input.description ?? null,
      demo: upload && demoInfo ? { status: 'processing', original_key: demoOriginalKey(accountId, id) } : null,
      created_at: now,
      updated_at: now,
    };
    if (upload && demoInfo && product.demo) {
      await putFile(product.demo.original_key, upload.path, CONTAINER_TYPES[demoInfo.container]);
    }
    try {
      await products.putNewProduct(product);
      if (product.demo) {
        await request.deps.tasks.dispatch({ type: 'normalise-demo', accountId, productId: id, originalKey: product.demo.original_key });
      }
    } catch (error) {
      await products.deleteProduct(accountId, id).catch(() => undefined);
      if (product.demo) await deleteKeys([product.demo.original_key]).catch(() => undefined);
      throw error;
    }
    return created(await present(product));
  } finally {
    await body.cleanup();
  }
};

const get: Operation = async (request) => {
  const product = await products.getProduct(request.principal.accountId, idParam(request));
  if (!product) throw notFound('Product');
  return ok(await present(product));
};

const update: Operation = async (request: AuthenticatedRequest) => {
  const id = idParam(request);
  const body = await readBody(request.event, { accept: ['json', 'form', 'multipart'] });
  try {
    const input = parseInput(updateProductInput, body.fields, 'product update');
    const product = await products.updateProduct(request.principal.accountId, id, input);
    if (!product) throw notFound('Product');
    return ok(await present(product));
  } finally {
    await body.cleanup();
  }
};

const remove: Operation = async (request) => {
  const accountId = request.principal.accountId;
  const id = idParam(request);
  const product = await products.deleteProduct(accountId, id);
  if (!product) throw notFound('Product');
  await deletePrefix(productObjectPrefix(accountId, id));
  return deleted(id);
};

export const productOperations = { list, create, get, update, remove };
