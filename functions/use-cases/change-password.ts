/**
 * POST /auth/password: checks the current password (guesses count against the email's sign-in
 * throttle, so a borrowed session cannot brute-force it), stores the new one, and revokes every other
 * session of the user: whoever else was signed in with the old password is signed out.
 */
import { AppError, badRequest } from '#domain/errors';
import { hashPassword, passwordProblem, verifyPassword } from '#domain/credentials';
import { emailAttemptsRule } from '#domain/sign-in-limits';
import type { SessionRecord } from '#domain/session';
import type { Ports } from '#ports/ports';
import { admitSignIn } from './sign-in-throttle';

export type ChangePasswordDeps = Pick<Ports, 'users' | 'sessions' | 'rateLimits' | 'now'>;

export async function changePassword(
  deps: ChangePasswordDeps,
  current: { session: SessionRecord; tokenHash: string },
  input: { current_password: string; new_password: string },
): Promise<{ otherSessionsRevoked: number }> {
  const { account_id: accountId, user_id: userId } = current.session;
  const user = await deps.users.get(accountId, userId);
  if (!user) throw new AppError('unauthorized', 'This session\'s user no longer exists: sign in again');
  await admitSignIn(deps, [emailAttemptsRule(user.email)]);
  const credentials = await deps.users.findByEmail(user.email);
  if (!credentials || !(await verifyPassword(input.current_password, credentials.password_hash))) {
    throw new AppError('forbidden', 'current_password is wrong');
  }
  const problem = passwordProblem(input.new_password);
  if (problem) throw badRequest(`Invalid password change: new_password: ${problem}`);
  await deps.users.setPasswordHash(accountId, userId, await hashPassword(input.new_password));
  return { otherSessionsRevoked: await deps.sessions.revokeOthersOfUser(userId, current.tokenHash) };
}
