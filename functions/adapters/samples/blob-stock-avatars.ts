/**
 * The stock avatars as the offline engine makes a prompt's avatar: each catalogue entry's prompt and
 * seed give its illustrated rig (the local engine animates that, as it does an avatar drawn from a
 * prompt), and its portrait, drawn from the rig, sits in the blob store under a key naming the rig,
 * so a change to the drawing of prompts makes new portraits instead of reusing stale ones. Portraits
 * are drawn where sharp is (the avatars and render functions, the local stack) and found elsewhere.
 */
import { createHash } from 'node:crypto';
import type { Avatar } from '#domain/avatar';
import { STOCK_AVATARS, STOCK_AVATARS_SINCE, STOCK_AVATAR_SIZE, stockAvatarImageKey, stockAvatarOf, type StockAvatar } from '#domain/stock-avatars';
import type { BlobStore } from '#ports/blob-store';
import type { StockAvatars } from '#ports/stock-avatars';
import type { IllustratedRig } from '#render';
import { rigFromPrompt } from '#render';

/** Draws a rig's square portrait as a PNG (render/illustrated's renderAvatarPng). */
export type PortraitDrawer = (rig: IllustratedRig, size: number) => Promise<Buffer>;

interface Drawn {
  stock: StockAvatar;
  rig: IllustratedRig;
  imageKey: string;
}

function drawnOf(stock: StockAvatar): Drawn {
  const rig = rigFromPrompt(stock.prompt, stock.seed);
  const look = createHash('sha256').update(JSON.stringify({ rig, size: STOCK_AVATAR_SIZE })).digest('hex').slice(0, 16);
  return { stock, rig, imageKey: stockAvatarImageKey(stock.slug, look) };
}

export class BlobStockAvatars implements StockAvatars {
  private readonly drawn: readonly Drawn[] = STOCK_AVATARS.map(drawnOf);
  /** Set once every portrait is known to be stored: later calls in this process read nothing. */
  private ready: Promise<void> | undefined;

  constructor(
    private readonly blobs: BlobStore,
    private readonly draw?: PortraitDrawer,
  ) {}

  list(accountId: number): Avatar[] {
    return this.drawn.map((drawn) => this.record(accountId, drawn));
  }

  get(accountId: number, avatarId: number): Avatar | undefined {
    const stock = stockAvatarOf(avatarId);
    const drawn = stock && this.drawn.find((d) => d.stock === stock);
    return drawn && this.record(accountId, drawn);
  }

  ensureImages(): Promise<void> {
    this.ready ??= Promise.all(this.drawn.map((drawn) => this.ensure(drawn))).then(
      () => undefined,
      (error: unknown) => {
        this.ready = undefined;
        throw error;
      },
    );
    return this.ready;
  }

  private async ensure({ stock, rig, imageKey }: Drawn): Promise<void> {
    if ((await this.blobs.sizeOf(imageKey)) !== undefined) return;
    if (!this.draw) throw new Error(`the portrait of stock avatar ${stock.slug} is not stored yet, and drawing is not bundled with this function`);
    await this.blobs.putBuffer(imageKey, await this.draw(rig, STOCK_AVATAR_SIZE), 'image/png');
  }

  private record(accountId: number, { stock, rig, imageKey }: Drawn): Avatar {
    return {
      id: stock.id,
      account_id: accountId,
      source: 'prompt',
      prompt: stock.prompt,
      status: 'ready',
      image_key: imageKey,
      width: STOCK_AVATAR_SIZE,
      height: STOCK_AVATAR_SIZE,
      // The offline engine's name, as on an avatar it drew from a prompt (engines/local/prompt-avatar.ts).
      engine: 'local',
      seed: stock.seed,
      rig,
      stock: true,
      error: null,
      created_at: STOCK_AVATARS_SINCE,
      updated_at: STOCK_AVATARS_SINCE,
    };
  }
}
