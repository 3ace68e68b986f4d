/** Examples of the account's own records: who signs in, keys, plans and usage, and the service's own answers. */
import type * as z from 'zod/mini';
import { PLAN_NAMES, planView } from '#domain/plans';
import {
  accountResponse,
  apiKeyResponse,
  createdApiKeyResponse,
  passwordChangedResponse,
  passwordResetRequestedResponse,
  passwordResetResponse,
  revokedApiKeyResponse,
  sessionResponse,
  signedInResponse,
  signedOutResponse,
} from '#domain/schemas/accounts';
import { planChangeResponse, plansResponse, stripeEventInput, stripeWebhookResponse } from '#domain/schemas/plans';
import { falCallbackInput, providerCallbackResponse } from '#domain/schemas/provider-callback';
import { usageResponse } from '#domain/schemas/usage';
import { livenessResponse } from '#domain/schemas/meta';
import { updateTicketResponse } from '#domain/schemas/live-updates';
import { deletedRecord } from '#domain/schemas/envelope';
import { API_NAME, API_PREFIX, API_REVISION } from '#functions/routes';
import { CREATED_AT, IDS, sample } from './sample';

const ACCOUNT: z.output<typeof accountResponse> = { id: IDS.account, name: 'Glow Labs', plan: 'pro', pending_plan: null, plan_changes_at: null, created_at: CREATED_AT };

const USER = { id: IDS.user, email: 'maya@glowlabs.example', name: 'Maya', created_at: CREATED_AT };
const CSRF_TOKEN = 'k3Vt9QmZ1xR7bLw2pYs8dNc4hFj6gTa0';

const SIGNED_IN: z.output<typeof signedInResponse> = { user: USER, account: ACCOUNT, csrf_token: CSRF_TOKEN };

const KEY: z.output<typeof apiKeyResponse> = {
  id: IDS.key,
  name: 'CI pipeline',
  prefix: 'rsk_Xq7v',
  scopes: ['read', 'write'],
  mode: 'live',
  created_at: CREATED_AT,
  last_used_at: '2026-11-25T11:58:03.000Z',
  revoked_at: null,
};

export const ACCOUNT_SAMPLES = [
  sample(accountResponse, ACCOUNT),
  sample(signedInResponse, SIGNED_IN),
  sample(sessionResponse, { ...SIGNED_IN, expires_at: '2026-12-02T12:00:00.000Z' }),
  sample(signedOutResponse, { signed_out: true }),
  sample(passwordChangedResponse, { password_changed: true, other_sessions_revoked: 2 }),
  sample(passwordResetRequestedResponse, { reset_requested: true, expires_in_s: 1800 }),
  sample(passwordResetResponse, { ...SIGNED_IN, other_sessions_revoked: 1 }),
  sample(apiKeyResponse, KEY),
  sample(createdApiKeyResponse, {
    id: IDS.key,
    name: 'CI pipeline',
    key: 'rsk_Xq7vN2cLp9RkT4mW8zB1yD6fH3jQ5sA0eU7gI2oK9nV',
    prefix: 'rsk_Xq7v',
    scopes: ['read', 'write'],
    mode: 'live',
    created_at: CREATED_AT,
  }),
  sample(revokedApiKeyResponse, { id: IDS.key, revoked: true }),
  sample(updateTicketResponse, { ticket: 'rsu_8fK2mQ9xVb3TzL7pWc1nRd5H', url: 'wss://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/v1', expires_at: '2026-11-30T12:01:00.000Z' }),
  sample(plansResponse, { billing: 'stripe', plans: PLAN_NAMES.map(planView) }),
  sample(planChangeResponse, { account: ACCOUNT, change: 'upgraded', checkout_url: null }),
  sample(stripeEventInput, { id: 'evt_1QxY2zAbCdEfGhIjKlMnOpQr', type: 'checkout.session.completed', data: { object: { id: 'cs_test_a1B2c3D4e5F6' } } }),
  sample(stripeWebhookResponse, { received: true, result: 'applied' }),
  sample(falCallbackInput, { request_id: '764cabcf-b745-4b3e-ae38-1200304cf45b', status: 'OK' }),
  sample(providerCallbackResponse, { received: true, result: 'resumed' }),
  sample(usageResponse, {
    plan: { name: 'pro', monthly_allowance: 150, library_cap: 50, avatar_cap: 100, ai_helpers_per_day: 500, ai_helpers_per_minute: 20, pending_plan: null, plan_changes_at: null },
    period: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
    allowance: { limit: 150, used: 41, reserved: 2, remaining: 107 },
    library: { used: 7, cap: 50, remaining: 43 },
    avatars: { used: 4, cap: 100, remaining: 96 },
  }),
  sample(livenessResponse, { name: API_NAME, version: 'v1', revision: API_REVISION, base_path: API_PREFIX, status: 'ok' }),
  sample(deletedRecord, { id: IDS.product, deleted: true }),
];
