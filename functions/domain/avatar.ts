/** The avatar record and how clients see it (docs/decisions.md). */
import { isTestScope } from './test-mode';

type AvatarStatus = 'processing' | 'ready' | 'failed';
type AvatarSource = 'prompt' | 'upload';

export interface Avatar {
  id: number;
  account_id: number;
  source: AvatarSource;
  prompt: string | null;
  status: AvatarStatus;
  image_key: string | null;
  width: number | null;
  height: number | null;
  /** Which engine made it and with what seed: a regeneration can reproduce it. */
  engine: string | null;
  seed: number | null;
  /** Engine-private animation data (see the engine port's AvatarRef.rig). */
  rig?: unknown;
  /** One of the stock avatars every account shares (domain/stock-avatars): never stored, counted or deleted. */
  stock?: true;
  error: { code: string; message: string } | null;
  created_at: string;
  updated_at: string;
}

export interface AvatarView {
  id: number;
  stock: boolean;
  source: AvatarSource;
  prompt: string | null;
  status: AvatarStatus;
  image_url: string | null;
  image_url_expires_at: string | null;
  width: number | null;
  height: number | null;
  error: { code: string; message: string } | null;
  test: boolean;
  created_at: string;
  updated_at: string;
}

export function avatarView(avatar: Avatar, image?: { url: string; expiresAt: string }): AvatarView {
  return {
    id: avatar.id,
    stock: avatar.stock === true,
    source: avatar.source,
    prompt: avatar.prompt,
    status: avatar.status,
    image_url: image?.url ?? null,
    image_url_expires_at: image?.expiresAt ?? null,
    width: avatar.width,
    height: avatar.height,
    error: avatar.error,
    test: isTestScope(avatar.account_id),
    created_at: avatar.created_at,
    updated_at: avatar.updated_at,
  };
}

export const avatarObjectPrefix = (accountId: number, avatarId: number) => `accounts/${accountId}/avatars/${avatarId}/`;
export const avatarImageKey = (accountId: number, avatarId: number, extension: string) =>
  `${avatarObjectPrefix(accountId, avatarId)}image.${extension}`;
