/** Sign-up, sign-in, password reset, the session, the account and API keys as zod schemas: validation and types come from here. */
import * as z from 'zod/mini';
import { PLAN_NAMES, type PlanName } from '#domain/plans';
import { ALL_SCOPES, KEY_MODES, type KeyMode, type Scope } from '#domain/api-keys';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from '#domain/credentials';
import { RESET_TOKEN_TTL_S } from '#domain/password-reset';
import { trimmedText } from './common';
import { createdAt, meaning, recordId, timestamp } from './envelope';

/** Whether the address is one is the use case's to say (sign-in must not tell a malformed address from an unknown one). */
const email = z.string({ error: 'must be a string' }).check(z.maxLength(EMAIL_MAX_LENGTH + 20, `must be at most ${EMAIL_MAX_LENGTH} characters`));
/** Length and commonness are the password policy's to judge; this only bounds what is hashed. */
const password = z.string({ error: 'must be a string' }).check(z.maxLength(PASSWORD_MAX_LENGTH * 4, `must be at most ${PASSWORD_MAX_LENGTH} characters`));
const label = (max: number) => trimmedText('line', max);

export const signUpInput = z.strictObject({
  email: meaning(email, 'The address to sign in with (trimmed and lower-cased); one account per address'),
  password: meaning(password, 'At least 10 and at most 200 characters, and not one of the most common passwords'),
  name: z.optional(meaning(label(100), 'What the studio calls the person')),
});
export const logInInput = z.strictObject({ email: meaning(email, 'The address signed up with'), password: meaning(password, 'Its password') });
export const changePasswordInput = z.strictObject({
  current_password: meaning(password, 'The password now (a wrong one is 403)'),
  new_password: meaning(password, 'The new one: 10 to 200 characters, not one of the most common'),
});

export const passwordResetRequestInput = z.strictObject({
  email: email.check(z.meta({ description: 'The address the account signed up with; a link to reset its password is mailed there if it has one' })),
});
export const passwordResetConfirmInput = z.strictObject({
  // Whether it is one of ours is the use case's to say, with the same message for every bad token; this only bounds what is read.
  token: z
    .string({ error: 'must be a string' })
    .check(z.maxLength(200, 'must be at most 200 characters'), z.meta({ description: 'The `token` of the mailed link (`/reset-password?token=…`)' })),
  password: password.check(z.meta({ description: 'The new password: 10 to 200 characters, not one of the most common' })),
});

const scope = z.enum(ALL_SCOPES as [Scope, ...Scope[]], { error: `must be one of ${ALL_SCOPES.join(', ')}` });
const keyMode = z.enum(KEY_MODES as [KeyMode, ...KeyMode[]], { error: `must be one of ${KEY_MODES.join(', ')}` });
const keyModeMeaning =
  '`live` (`rsk_…`): the account\'s data, engines and allowance; `test` (`rsk_test_…`): test data kept apart from live data, the offline engine and the social sandboxes, no allowance used, videos watermarked TEST';
export const createKeyInput = z.strictObject({
  name: meaning(label(100), 'What the key is for, to tell keys apart'),
  scopes: z.optional(
    z
      .array(scope)
      .check(
        z.minLength(1, 'must name at least one scope'),
        z.maxLength(ALL_SCOPES.length, 'names a scope twice'),
        z.meta({ description: 'What it may do: `read` (GETs), `write` (other methods), `publish` (posting to social channels); every scope when left out' }),
      ),
  ),
  mode: z.optional(keyMode.check(z.meta({ description: `${keyModeMeaning}; live when left out` }))),
});
export type CreateKeyInput = z.infer<typeof createKeyInput>;

const userResponse = z
  .object({
    id: meaning(recordId, "The user's id"),
    email: meaning(z.string(), 'The address they sign in with'),
    name: meaning(z.nullable(z.string()), 'Their name, if given'),
    created_at: meaning(timestamp, 'When they signed up'),
  })
  .register(z.globalRegistry, { id: 'User', description: 'A person who signs in to the studio' });

const plan = z.enum(PLAN_NAMES as [PlanName, ...PlanName[]]);

export const accountResponse = z
  .object({
    id: meaning(recordId, "The account's id"),
    name: meaning(z.string(), "The account's name"),
    plan: plan.check(z.meta({ description: 'The plan in force now: its allowance and caps hold' })),
    pending_plan: z.nullable(plan).check(z.meta({ description: 'A downgrade waiting for the next billing period (PUT /account/plan), or null' })),
    plan_changes_at: z.nullable(timestamp).check(z.meta({ description: 'When `pending_plan` takes over (the next billing period starts), or null' })),
    created_at: createdAt,
  })
  .register(z.globalRegistry, { id: 'Account', description: 'Whose the records are: the plan and its limits apply to it, shared by its keys and sessions' });

const csrfToken = z.string().check(z.meta({ description: 'Send it as X-CSRF-Token with every change made with the session cookie' }));

export const signedInResponse = z
  .object({ user: userResponse, account: meaning(accountResponse, 'Their account'), csrf_token: csrfToken })
  .register(z.globalRegistry, { id: 'SignedIn', description: 'Signed in: the `rs_session` cookie comes with this answer' });

export const sessionResponse = z
  .object({
    user: userResponse,
    account: meaning(accountResponse, 'Their account'),
    csrf_token: csrfToken,
    expires_at: meaning(timestamp, 'When the session ends unless used again'),
  })
  .register(z.globalRegistry, { id: 'Session', description: 'The signed-in session; it ends 7 days after its last use, 30 days after sign-in at the latest' });

export const signedOutResponse = z
  .object({ signed_out: meaning(z.literal(true), 'Always true') })
  .register(z.globalRegistry, { id: 'SignedOut', description: 'The session is revoked; its cookie is cleared' });

export const passwordChangedResponse = z
  .object({
    password_changed: meaning(z.literal(true), 'Always true'),
    other_sessions_revoked: meaning(z.int().check(z.nonnegative()), 'Sessions of the user signed out by the change (this one stays)'),
  })
  .register(z.globalRegistry, { id: 'PasswordChanged', description: 'The password is changed' });

export const passwordResetRequestedResponse = z
  .object({
    reset_requested: meaning(z.literal(true), 'Always true, whether or not the email has an account'),
    expires_in_s: z.literal(RESET_TOKEN_TTL_S).check(z.meta({ description: 'How long a mailed link works, in seconds' })),
  })
  .register(z.globalRegistry, {
    id: 'PasswordResetRequested',
    description: 'The same answer whether or not the email has an account: if it has, a link is on its way to it',
  });

export const passwordResetResponse = z
  .object({
    user: userResponse,
    account: meaning(accountResponse, 'Their account'),
    csrf_token: csrfToken,
    other_sessions_revoked: z.int().check(z.nonnegative(), z.meta({ description: 'Sessions of the user signed out by the new password' })),
  })
  .register(z.globalRegistry, { id: 'PasswordReset', description: 'The password is set and the link spent; signed in: the `rs_session` cookie comes with this answer' });

const scopes = meaning(z.array(scope), 'What the key may do: `read` (GETs), `write` (other methods), `publish` (posting to social channels)');

export const apiKeyResponse = z
  .object({
    id: meaning(recordId, "The key's id (DELETE /keys/{id} revokes it)"),
    name: meaning(z.nullable(z.string()), 'What it is for'),
    prefix: z.string().check(z.meta({ description: 'The key\'s first characters, to tell keys apart; the key itself is shown only once' })),
    scopes,
    mode: meaning(keyMode, keyModeMeaning),
    created_at: createdAt,
    last_used_at: meaning(z.nullable(timestamp), 'When a request last came with it; null: never'),
    revoked_at: meaning(z.nullable(timestamp), 'When it was revoked; null while it works'),
  })
  .register(z.globalRegistry, { id: 'ApiKey', description: 'An API key, as listed: never the key itself' });

export const createdApiKeyResponse = z
  .object({
    id: meaning(recordId, "The key's id"),
    name: meaning(z.string(), 'What it is for'),
    key: z.string().check(z.meta({ description: 'The key: shown in this answer only, store it now' })),
    prefix: meaning(z.string(), "The key's first characters, as GET /keys lists it"),
    scopes,
    mode: meaning(keyMode, keyModeMeaning),
    created_at: createdAt,
  })
  .register(z.globalRegistry, { id: 'CreatedApiKey', description: 'A new API key, with the key itself: shown this once' });

export const revokedApiKeyResponse = z
  .object({ id: meaning(recordId, 'The key revoked'), revoked: meaning(z.literal(true), 'Always true') })
  .register(z.globalRegistry, { id: 'RevokedApiKey', description: 'The key is revoked: the next request with it is 401' });
