/** The product record and how it is shown to clients (docs/decisions.md). */
import type { DemoIntake, Reframe } from './demo-intake';
import { isTestScope } from './test-mode';

type DemoStatus = 'processing' | 'ready' | 'failed';

export interface DemoVideo {
  status: DemoStatus;
  /** The upload as received, kept until the canonical copy exists. */
  original_key: string;
  /** The canonical encoding, once normalised. */
  key?: string;
  /** The id of the canonical settings `key` was made with (absent on demos normalised before it existed). */
  encoding?: string;
  duration_s?: number;
  width?: number;
  height?: number;
  size_bytes?: number;
  /**
   * The demo's audio as normalised: levelled to this integrated loudness (LUFS), or null when it has
   * no sound. Absent on demos normalised before levelling existed: they are measured and levelled
   * when a video is composed from them.
   */
  loudness_lufs?: number | null;
  error?: { code: string; message: string };
  /**
   * Set while a sample product's demo is being made: work cut off by a restart is handed back to the
   * sample-demo worker, since there is no upload to normalise.
   */
  source?: 'sample';
}

export interface Product {
  id: number;
  account_id: number;
  name: string;
  description: string | null;
  demo: DemoVideo | null;
  /**
   * How the demo is to be taken in (reframed, trimmed), as the request asked; kept beside the demo
   * rather than in it because settling a demo replaces that record whole. Absent: nothing was asked.
   */
  demo_intake?: DemoIntake;
  created_at: string;
  updated_at: string;
}

interface DemoVideoView {
  status: DemoStatus;
  url: string | null;
  url_expires_at: string | null;
  duration_s: number | null;
  width: number | null;
  height: number | null;
  error: { code: string; message: string } | null;
}

export interface ProductView {
  id: number;
  name: string;
  description: string | null;
  demo_video: DemoVideoView | null;
  reframe: Reframe | null;
  demo_start_s: number | null;
  demo_end_s: number | null;
  test: boolean;
  created_at: string;
  updated_at: string;
}

export function productView(product: Product, playable?: { url: string; expiresAt: string }): ProductView {
  const demo = product.demo;
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    demo_video: demo
      ? {
          status: demo.status,
          url: playable?.url ?? null,
          url_expires_at: playable?.expiresAt ?? null,
          duration_s: demo.duration_s ?? null,
          width: demo.width ?? null,
          height: demo.height ?? null,
          error: demo.error ?? null,
        }
      : null,
    reframe: product.demo_intake?.reframe ?? null,
    demo_start_s: product.demo_intake?.start_s ?? null,
    demo_end_s: product.demo_intake?.end_s ?? null,
    test: isTestScope(product.account_id),
    created_at: product.created_at,
    updated_at: product.updated_at,
  };
}

/** A product as first stored: created, and last updated, `now`. */
export function newProduct(fields: Omit<Product, 'created_at' | 'updated_at'>, now: Date): Product {
  const at = now.toISOString();
  return { ...fields, created_at: at, updated_at: at };
}

export const productObjectPrefix = (accountId: number, productId: number) => `accounts/${accountId}/products/${productId}/`;
export const demoOriginalKey = (accountId: number, productId: number) => `${productObjectPrefix(accountId, productId)}demo-original`;
export const demoCanonicalKey = (accountId: number, productId: number) => `${productObjectPrefix(accountId, productId)}demo.mp4`;
