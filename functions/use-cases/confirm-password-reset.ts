/**
 * POST /auth/password-reset/confirm: the mailed token and a new password. The new password meets the
 * sign-up policy; setting it spends the token in the same conditional write, so of two confirms with
 * one token exactly one succeeds. The person is then signed in with a new session and every other
 * session of the user is revoked: whoever held the old password is signed out.
 */
import { AppError, badRequest } from '#domain/errors';
import { hashPassword, passwordProblem } from '#domain/credentials';
import { hashResetToken, isPasswordResetLive, isWellFormedResetToken } from '#domain/password-reset';
import { addressRule } from '#domain/sign-in-limits';
import type { Ports } from '#ports/ports';
import { admitSignIn } from './sign-in-throttle';
import { startSession } from './start-session';
import type { SignedIn } from './sign-up';

export type ConfirmPasswordResetDeps = Pick<Ports, 'users' | 'accounts' | 'sessions' | 'rateLimits' | 'now'>;

/** One message for an unknown, used, replaced or expired token: the link is no good, whatever the reason. */
export const RESET_LINK_INVALID = 'This password-reset link is unknown, used or expired: ask for a new one';

export async function confirmPasswordReset(
  deps: ConfirmPasswordResetDeps,
  address: string,
  input: { token: string; password: string },
): Promise<SignedIn & { otherSessionsRevoked: number }> {
  await admitSignIn(deps, [addressRule(address)], 'password-reset attempts');
  const reset = isWellFormedResetToken(input.token) ? await deps.users.findPasswordReset(hashResetToken(input.token)) : undefined;
  if (!reset || !isPasswordResetLive(reset, deps.now())) throw badRequest(RESET_LINK_INVALID, 'token');
  // Judged before the token is spent: a refused password leaves the link working.
  const problem = passwordProblem(input.password);
  if (problem) throw badRequest(`Invalid password reset: password: ${problem}`, 'password');
  if (!(await deps.users.redeemPasswordReset(reset, await hashPassword(input.password)))) throw badRequest(RESET_LINK_INVALID, 'token');

  const [user, account] = await Promise.all([deps.users.get(reset.account_id, reset.user_id), deps.accounts.get(reset.account_id)]);
  if (!user || !account) throw new AppError('unauthorized', 'This user no longer exists');
  const session = await startSession(deps, user);
  const otherSessionsRevoked = await deps.sessions.revokeOthersOfUser(user.id, session.hash);
  return { user, account, session, otherSessionsRevoked };
}
