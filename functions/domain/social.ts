/**
 * Social publishing: the scheduling providers, the networks they reach, the channels an account has
 * there, provider connections and how they are shown to clients.
 */
import * as z from 'zod/mini';
import type { SealedSecret } from './sealed-secret';

/** provider_a is modelled on Ayrshare, provider_b on Post for Me. */
export const SOCIAL_PROVIDERS = ['provider_a', 'provider_b'] as const;
export type ProviderName = (typeof SOCIAL_PROVIDERS)[number];

/** Networks a channel can be on (the union of both providers' lists, in our spelling). */
export const PLATFORMS = ['tiktok', 'instagram', 'youtube', 'facebook', 'x', 'linkedin', 'threads', 'pinterest', 'bluesky'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** What an account gave us to act on its behalf; stored encrypted, never returned or logged. */
export interface ProviderCredentials {
  apiKey: string;
  /** provider_a only: the User Profile the key acts for (its `Profile-Key` header). */
  profileKey?: string;
  /**
   * provider_a only: the owner's own X app (consumer key and secret). Ayrshare has refused every X
   * operation without them since 2026-03-31 (`X-Twitter-OAuth1-Api-Key` / `-Secret` headers).
   */
  xApp?: { apiKey: string; apiSecret: string };
}

/** One account on one network, reached through the provider (our `account_ids` are these ids). */
export interface Channel {
  id: string;
  platform: Platform;
  /** Display name or handle. */
  name: string;
  username: string | null;
  /** Inactive channels (disconnected upstream) are listed but cannot be posted to. */
  active: boolean;
}

export const isProviderName = (value: unknown): value is ProviderName =>
  typeof value === 'string' && (SOCIAL_PROVIDERS as readonly string[]).includes(value);

/**
 * `active`: the last call with the stored key worked. `error`: the provider refused the stored key
 * (revoked or rotated upstream); the owner must connect again (PUT /social/connections/{provider}).
 */
export type ConnectionStatus = 'active' | 'error';

/** One per (account, provider). The credentials stay sealed; only the repository opens them, on request. */
export interface Connection {
  account_id: number;
  provider: ProviderName;
  status: ConnectionStatus;
  credentials: SealedSecret;
  /** The last characters of the provider key, for the owner to recognise it; null for short keys. */
  key_hint: string | null;
  /** The channels as the provider last listed them. */
  channels: Channel[];
  connected_at: string;
  synced_at: string;
  updated_at: string;
  last_error: { code: string; message: string; at: string } | null;
  /** Changes on every connect, so a sync that raced a reconnect cannot overwrite the new key's channels. */
  generation: string;
}

/** A connection as first stored: healthy, its channels just listed, a new generation. */
export function newConnection(fields: {
  accountId: number;
  provider: ProviderName;
  credentials: SealedSecret;
  keyHint: string | null;
  channels: Channel[];
  generation: string;
  now: Date;
}): Connection {
  const now = fields.now.toISOString();
  return {
    account_id: fields.accountId,
    provider: fields.provider,
    status: 'active',
    credentials: fields.credentials,
    key_hint: fields.keyHint,
    channels: fields.channels,
    connected_at: now,
    synced_at: now,
    updated_at: now,
    last_error: null,
    generation: fields.generation,
  };
}

export interface ConnectionView {
  provider: ProviderName;
  status: ConnectionStatus;
  key_hint: string | null;
  channels: { id: string; platform: string; name: string; username: string | null; active: boolean }[];
  connected_at: string;
  synced_at: string;
  last_error: { code: string; message: string; at: string } | null;
}

export function connectionView(connection: Connection): ConnectionView {
  return {
    provider: connection.provider,
    status: connection.status,
    key_hint: connection.key_hint,
    channels: connection.channels.map(channelView),
    connected_at: connection.connected_at,
    synced_at: connection.synced_at,
    last_error: connection.last_error,
  };
}

export const channelView = (c: Channel) => ({ id: c.id, platform: c.platform, name: c.name, username: c.username, active: c.active });

/** Shows at most the last 4 characters, and only of keys long enough that 4 reveal little. */
export function keyHint(apiKey: string): string | null {
  return apiKey.length >= 16 ? `…${apiKey.slice(-4)}` : null;
}

/** Channel ids that appeared and disappeared between two listings. */
export function channelChanges(before: readonly Channel[], after: readonly Channel[]): { added: string[]; removed: string[] } {
  const was = new Set(before.map((c) => c.id));
  const now = new Set(after.map((c) => c.id));
  return { added: [...now].filter((id) => !was.has(id)), removed: [...was].filter((id) => !now.has(id)) };
}

/** Keys travel in HTTP headers: printable ASCII only, so no key can break (or leak through) a header. */
const providerSecret = (min: number) =>
  z
    .string({ error: 'must be a string' })
    .check(
      z.trim(),
      z.minLength(min, `must be ${min} to 512 characters`),
      z.maxLength(512, `must be ${min} to 512 characters`),
      z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII with no spaces'),
    );

/** PUT /social/connections/{provider} (and `cli connections set`). Messages never quote the value. */
export const connectionInput = z.strictObject({
  api_key: providerSecret(8).check(z.meta({ description: "The provider's API key: checked with the provider, then stored sealed; never shown again (only its last 4 characters)" })),
  /** provider_a only: the User Profile the key acts for. */
  profile_key: z.optional(providerSecret(1).check(z.meta({ description: '`provider_a` only: the User Profile the key acts for' }))),
  /** provider_a only, both or neither: the owner's X app, which Ayrshare needs for X channels. */
  x_api_key: z.optional(providerSecret(1).check(z.meta({ description: "`provider_a` only, with `x_api_secret`: the owner's X app, which X channels need" }))),
  x_api_secret: z.optional(providerSecret(1).check(z.meta({ description: "`provider_a` only, with `x_api_key`: the X app's secret" }))),
});

export type ConnectionInput = z.infer<typeof connectionInput>;

/**
 * The credentials a valid input stands for, or what is wrong with it: a field the provider does not
 * take (only provider_a takes a profile key and an X app), or half of the X app.
 */
export function credentialsOf(provider: ProviderName, input: ConnectionInput): ProviderCredentials | { refused: string } {
  const extras = (['profile_key', 'x_api_key', 'x_api_secret'] as const).filter((field) => input[field] !== undefined);
  if (provider !== 'provider_a' && extras.length > 0) return { refused: `${extras.join(', ')} ${extras.length > 1 ? 'are' : 'is'} only taken by provider_a` };
  if ((input.x_api_key === undefined) !== (input.x_api_secret === undefined)) {
    return { refused: 'x_api_key and x_api_secret: give both (your X app\'s API key and secret) or neither' };
  }
  const credentials: ProviderCredentials = { apiKey: input.api_key };
  if (input.profile_key !== undefined) credentials.profileKey = input.profile_key;
  if (input.x_api_key !== undefined && input.x_api_secret !== undefined) credentials.xApp = { apiKey: input.x_api_key, apiSecret: input.x_api_secret };
  return credentials;
}
