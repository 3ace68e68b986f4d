/**
 * POST /auth/login. A wrong password and an unknown email get the same answer, after the same work
 * (an unknown email is checked against a decoy hash), so neither the text nor the timing tells which.
 */
import { AppError } from '#domain/errors';
import { decoyPasswordHash, normaliseEmail, verifyPassword } from '#domain/credentials';
import { addressRule, emailAttemptsRule } from '#domain/sign-in-limits';
import type { Ports } from '#ports/ports';
import { admitSignIn } from './sign-in-throttle';
import { startSession } from './start-session';
import type { SignedIn } from './sign-up';

export type LogInDeps = Pick<Ports, 'users' | 'accounts' | 'sessions' | 'rateLimits' | 'now'>;

export const WRONG_CREDENTIALS = 'Wrong email or password';

export async function logIn(deps: LogInDeps, address: string, input: { email: string; password: string }): Promise<SignedIn> {
  const email = normaliseEmail(input.email);
  await admitSignIn(deps, email ? [addressRule(address), emailAttemptsRule(email)] : [addressRule(address)]);
  const found = email ? await deps.users.findByEmail(email) : undefined;
  const matches = await verifyPassword(input.password, found?.password_hash ?? (await decoyPasswordHash()));
  if (!found || !matches) throw new AppError('unauthorized', WRONG_CREDENTIALS);
  const account = await deps.accounts.get(found.user.account_id);
  if (!account) throw new AppError('unauthorized', WRONG_CREDENTIALS);
  return { user: found.user, account, session: await startSession(deps, found.user) };
}
