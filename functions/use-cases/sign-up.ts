/**
 * POST /auth/signup: a new account on the free plan, its first user, and a session. The account, the
 * user and the claim on the email are one write, so a taken email leaves nothing behind.
 */
import { badRequest, conflict } from '#domain/errors';
import { hashPassword, normaliseEmail, passwordProblem } from '#domain/credentials';
import { addressRule } from '#domain/sign-in-limits';
import type { Account } from '#domain/account';
import type { NewSession } from '#domain/session';
import type { User } from '#domain/user';
import type { Ports } from '#ports/ports';
import { admitSignIn } from './sign-in-throttle';
import { startSession } from './start-session';

export type SignUpDeps = Pick<Ports, 'users' | 'sessions' | 'rateLimits' | 'now'>;

export interface SignedIn {
  user: User;
  account: Account;
  session: NewSession;
}

export async function signUp(deps: SignUpDeps, address: string, input: { email: string; password: string; name?: string }): Promise<SignedIn> {
  await admitSignIn(deps, [addressRule(address)]);
  const email = normaliseEmail(input.email);
  if (!email) throw badRequest('Invalid sign-up: email: must be one email address (at most 254 characters)');
  const problem = passwordProblem(input.password);
  if (problem) throw badRequest(`Invalid sign-up: password: ${problem}`);
  const made = await deps.users.signUp({
    email,
    name: input.name ?? null,
    accountName: input.name ?? email,
    plan: 'free',
    passwordHash: await hashPassword(input.password),
    now: deps.now(),
  });
  if (made === 'email_taken') throw conflict('This email already has an account: sign in instead');
  return { ...made, session: await startSession(deps, made.user) };
}

