/**
 * Products in memory, with the DynamoDB store's conditions (a demo settles only on the upload it was
 * made from and, when it raises an event, only while it is processing). The events themselves are the
 * webhook store's business, which this double does not keep.
 */
import type { DemoVideo, Product } from '#domain/product';
import type { ProductPage, ProductStore } from '#ports/product-store';
import type { WebhookEvent } from '#domain/webhooks';

const productKey = (accountId: number, productId: number) => `${accountId}/${productId}`;

export class MemoryProductStore implements ProductStore {
  readonly products = new Map<string, Product>();
  private lastId = 0;

  async newProductId(): Promise<number> {
    return ++this.lastId;
  }

  async create(product: Product): Promise<void> {
    const key = productKey(product.account_id, product.id);
    if (this.products.has(key)) throw new Error(`products item ${product.id} of account ${product.account_id} already exists`);
    this.products.set(key, structuredClone(product));
  }

  async demosProcessingBefore(cutoff: Date): Promise<{ accountId: number; productId: number }[]> {
    return [...this.products.values()]
      .filter((p) => p.demo?.status === 'processing' && p.created_at < cutoff.toISOString())
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.account_id - b.account_id || a.id - b.id)
      .map((p) => ({ accountId: p.account_id, productId: p.id }));
  }

  async get(accountId: number, productId: number): Promise<Product | undefined> {
    const product = this.products.get(productKey(accountId, productId));
    return product && structuredClone(product);
  }

  /** Newest first, as the counted collection pages. */
  async list(accountId: number, page: number, perPage: number): Promise<ProductPage> {
    const all = [...this.products.values()].filter((p) => p.account_id === accountId).sort((a, b) => b.id - a.id);
    return { items: all.slice((page - 1) * perPage, page * perPage).map((p) => structuredClone(p)), total: all.length };
  }

  async update(accountId: number, productId: number, changes: { name?: string; description?: string | null }, now: Date): Promise<Product | undefined> {
    const product = this.products.get(productKey(accountId, productId));
    if (!product) return undefined;
    if (changes.name !== undefined) product.name = changes.name;
    if (changes.description !== undefined) product.description = changes.description;
    product.updated_at = now.toISOString();
    return structuredClone(product);
  }

  async delete(accountId: number, productId: number): Promise<Product | undefined> {
    const key = productKey(accountId, productId);
    const product = this.products.get(key);
    this.products.delete(key);
    return product;
  }

  async settleDemo(accountId: number, productId: number, demo: DemoVideo, now: Date, event?: WebhookEvent): Promise<boolean> {
    const product = this.products.get(productKey(accountId, productId));
    if (!product || product.demo?.original_key !== demo.original_key) return false;
    if (event && product.demo.status !== 'processing') return false;
    product.demo = structuredClone(demo);
    product.updated_at = now.toISOString();
    return true;
  }
}
