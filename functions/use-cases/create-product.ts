/**
 * Creates a product, with its demo video when one was uploaded (a multipart part or a direct upload):
 * the file is judged before anything is written (a refused one leaves nothing behind), with what the
 * request asked of it (a reframe, a trim), and normalised in the background as asked.
 */
import { intakeWithoutDemo, judgeDemo, type DemoIntake } from '#domain/demo-intake';
import { demoOriginalKey, newProduct, type Product } from '#domain/product';
import type { BackgroundTask } from '#ports/background-tasks';
import type { Ports } from '#ports/ports';
import { dropObjectsIfFails } from './drop-objects';
import { withFile, type FileSource, type UseUploadDeps } from './use-upload';

export type CreateProductDeps = Pick<Ports, 'products' | 'blobs' | 'demoMedia' | 'tasks' | 'now'> & UseUploadDeps;

export interface CreateProductInput {
  accountId: number;
  name: string;
  description?: string | null;
  /** The demo video: a multipart part on disk, or a direct upload's id. */
  demo?: FileSource;
  /** How to take the demo in (domain/demo-intake.ts); null or absent: as it is. */
  intake?: DemoIntake | null;
}

export async function createProduct(deps: CreateProductDeps, input: CreateProductInput): Promise<Product> {
  if (!input.demo) {
    if (input.intake) throw intakeWithoutDemo(input.intake);
    return create(deps, input, undefined);
  }
  return withFile(deps, input.accountId, 'demo_video', input.demo, (path) => create(deps, input, path));
}

async function create(deps: CreateProductDeps, input: CreateProductInput, demoPath: string | undefined): Promise<Product> {
  const { accountId } = input;
  const demo = demoPath ? await deps.demoMedia.inspect(demoPath) : undefined;
  if (demo) judgeDemo(demo, input.intake ?? null);
  const id = await deps.products.newProductId();
  const product = newProduct(
    {
      id,
      account_id: accountId,
      name: input.name,
      description: input.description ?? null,
      demo: demo ? { status: 'processing', original_key: demoOriginalKey(accountId, id) } : null,
      ...(demo && input.intake ? { demo_intake: input.intake } : {}),
    },
    deps.now(),
  );
  if (demo && product.demo) await deps.blobs.putFile(product.demo.original_key, demoPath!, demo.contentType);
  const normalise: BackgroundTask | undefined = product.demo ? { type: 'normalise-demo', accountId, productId: id, originalKey: product.demo.original_key } : undefined;
  await dropObjectsIfFails(deps.blobs, product.demo ? [product.demo.original_key] : [], () => recordProduct(deps, product, normalise));
  return product;
}

/**
 * Records a product and hands its demo's background work over (`task`, where there is one); if
 * either fails, the record goes again (best effort) and the failure stands.
 */
export async function recordProduct(deps: Pick<Ports, 'products' | 'tasks'>, product: Product, task: BackgroundTask | undefined): Promise<void> {
  try {
    await deps.products.create(product);
    if (task) await deps.tasks.dispatch(task);
  } catch (error) {
    await deps.products.delete(product.account_id, product.id).catch(() => undefined);
    throw error;
  }
}
