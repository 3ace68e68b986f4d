/** Products, counted per account so that lists page by blocks (functions/adapters/dynamodb/collection-counter.ts). */
import type { DemoVideo, Product } from '#domain/product';
import type { WebhookEvent } from '#domain/webhooks';
import type { CountedPage, PagedCollection } from './counted-collection';

export type ProductPage = CountedPage<Product>;

export interface ProductStore extends PagedCollection<Product> {
  newProductId(): Promise<number>;
  create(product: Product): Promise<void>;
  /** The updated record, or undefined when there is none. */
  update(accountId: number, productId: number, changes: { name?: string; description?: string | null }, now: Date): Promise<Product | undefined>;
  /** The deleted record (its objects are the caller's to remove), or undefined when there was none. */
  delete(accountId: number, productId: number): Promise<Product | undefined>;
  /**
   * Records the outcome of normalisation only on the upload it was made from; false when the product
   * was deleted or given another demo meanwhile (the caller then discards what it made). With a
   * webhook `event`, only a demo still processing is settled, and the event is written with it.
   */
  settleDemo(accountId: number, productId: number, demo: DemoVideo, now: Date, event?: WebhookEvent): Promise<boolean>;
  /**
   * Products whose demo has been normalising since before `cutoff` (created before it, still
   * processing), oldest first: what the sweeper fails once no worker can still be on them.
   */
  demosProcessingBefore(cutoff: Date): Promise<{ accountId: number; productId: number }[]>;
}
