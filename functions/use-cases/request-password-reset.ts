/**
 * POST /auth/password-reset: mails a reset link when the email has an account. The caller learns
 * nothing either way: the operation answers the same whatever happened here, the throttles count
 * before the lookup, and a mail that could not be sent is the operator's to see in the log, not the
 * caller's (an error only for known addresses would tell which ones have accounts).
 */
import { badRequest } from '#domain/errors';
import { normaliseEmail } from '#domain/credentials';
import { newPasswordReset, passwordResetMail, resetLink } from '#domain/password-reset';
import { addressRule, resetRequestsRule } from '#domain/sign-in-limits';
import type { Ports } from '#ports/ports';
import { admitSignIn } from './sign-in-throttle';
import { logOf, type UseCaseLog } from './log';

export type RequestPasswordResetDeps = Pick<Ports, 'users' | 'mailer' | 'studioUrl' | 'rateLimits' | 'now'> & { log?: UseCaseLog };

export async function requestPasswordReset(deps: RequestPasswordResetDeps, address: string, input: { email: string }): Promise<void> {
  const email = normaliseEmail(input.email);
  await admitSignIn(deps, email ? [addressRule(address), resetRequestsRule(email)] : [addressRule(address)], 'password-reset requests');
  // Malformed is not unknown: saying so tells nothing about who has an account, and helps a typo.
  if (!email) throw badRequest('Invalid password reset request: email: must be one email address (at most 254 characters)', 'email');
  const found = await deps.users.findByEmail(email);
  if (!found) return;
  const reset = newPasswordReset(found.user, deps.now());
  // Stored before the mail goes, so the link works as soon as it arrives.
  await deps.users.savePasswordReset(reset.record);
  try {
    await deps.mailer.send(passwordResetMail(email, resetLink(deps.studioUrl(), reset.token)));
  } catch (error) {
    logOf(deps).error('the password-reset mail was not sent', { account_id: found.user.account_id, user_id: found.user.id, error });
  }
}
