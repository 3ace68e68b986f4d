/**
 * Stock avatars: a small catalogue every account has from its first request, listed before its own
 * avatars, usable wherever an avatar id is, never counted against the plan's cap and never deleted
 * (docs/decisions.md, Stock avatars). They are the offline engine's illustrated people, each fixed by
 * a prompt and a seed, so every stack draws the same faces; nothing is stored per account.
 */

import { SAMPLES_PREFIX } from './sample-product';

export interface StockAvatar {
  id: number;
  /** Names its image in the blob store. */
  slug: string;
  /** What the offline engine draws it from, with `seed`; shown as the avatar's prompt. */
  prompt: string;
  seed: number;
}

/**
 * Stock ids lie above this. Account avatars take ids from one counter for the whole stack, from 1 up,
 * one per avatar ever made: they never come near a billion, so the two kinds cannot meet.
 */
const STOCK_ID_BASE = 1_000_000_000;

export const STOCK_AVATARS: readonly StockAvatar[] = [
  { id: STOCK_ID_BASE + 1, slug: 'maya', prompt: 'a smiling young woman with long curly brown hair and a yellow hoodie', seed: 1102 },
  { id: STOCK_ID_BASE + 2, slug: 'leo', prompt: 'a young man with short black hair, round glasses and a blue shirt', seed: 2202 },
  { id: STOCK_ID_BASE + 3, slug: 'grace', prompt: 'a cheerful older woman with grey hair in a bun and a green sweater', seed: 3303 },
  { id: STOCK_ID_BASE + 4, slug: 'omar', prompt: 'a man with dark skin, a short beard and a red hoodie', seed: 4404 },
];

/** The catalogue's date: every stock avatar's created_at and updated_at. */
export const STOCK_AVATARS_SINCE = '2026-12-01T00:00:00.000Z';

/** Side of a stock avatar's square portrait, as the offline engine draws a prompt's. */
export const STOCK_AVATAR_SIZE = 1024;

export const stockAvatarOf = (avatarId: number): StockAvatar | undefined => STOCK_AVATARS.find((avatar) => avatar.id === avatarId);

/** Whether an id names a stock avatar: such an id is never an account's, nor one the store is asked about. */
export const isStockAvatarId = (avatarId: number): boolean => stockAvatarOf(avatarId) !== undefined;

/**
 * A stock portrait's key: shared by every account, made once per stack, named by what it was drawn
 * from (`look`, a digest the drawing side computes), so a change to the drawing makes a new file.
 */
export const stockAvatarImageKey = (slug: string, look: string) => `${SAMPLES_PREFIX}avatars/${slug}-${look}.png`;
