/** Sign-up, sign-in, password reset and the studio session. The session token travels only in the `rs_session` cookie. */
import type { ApiRequest, ApiResult, AuthenticatedRequest, HttpPorts, Operation, PublicOperation, SessionCredential } from '#http/api-types';
import type { NeedsOf, Ports } from '#ports/ports';
import { readRouteBody } from '#http/body';
import { parseInput } from '#http/validate';
import { accepted, created, ok } from '#http/respond';
import { clearSessionCookie, setSessionCookie } from '#http/session-cookie';
import { AppError } from '#domain/errors';
import { cookieMaxAgeS } from '#domain/session';
import { userView } from '#domain/user';
import { RESET_TOKEN_TTL_S } from '#domain/password-reset';
import { accountAt } from '#domain/account';
import { changePasswordInput, logInInput, passwordResetConfirmInput, passwordResetRequestInput, signUpInput } from '#domain/schemas/accounts';
import { logger } from '#functions/logger';
import { signUp, type SignedIn } from '#use-cases/sign-up';
import { logIn } from '#use-cases/log-in';
import { logOut } from '#use-cases/log-out';
import { changePassword } from '#use-cases/change-password';
import { requestPasswordReset } from '#use-cases/request-password-reset';
import { confirmPasswordReset } from '#use-cases/confirm-password-reset';

/** The address API Gateway saw the request come from (the local server fills the same field). */
const clientAddress = (request: ApiRequest<unknown>) => request.event.requestContext?.http?.sourceIp ?? 'unknown';

/** Signing up, in and reset reach these besides the HTTP layer's ports, which the accounts function has anyway. */
type Public<P> = PublicOperation<HttpPorts & P>;

function signedIn(request: ApiRequest<Pick<Ports, 'now'>>, result: SignedIn, status: 200 | 201, extra: Record<string, unknown> = {}): ApiResult {
  const { user, account, session } = result;
  const answer = (status === 201 ? created : ok)({ user: userView(user), account: accountAt(account, request.deps.now()), csrf_token: session.record.csrf_token, ...extra });
  return { ...answer, cookies: [setSessionCookie(request.event, session.token, cookieMaxAgeS(session.record, request.deps.now()))] };
}

const signUpOperation: Public<NeedsOf<typeof signUp>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(signUpInput, body.fields, 'sign-up');
  return signedIn(request, await signUp(request.deps, clientAddress(request), input), 201);
};

const logInOperation: Public<NeedsOf<typeof logIn>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(logInInput, body.fields, 'sign-in');
  return signedIn(request, await logIn(request.deps, clientAddress(request), input), 200);
};

/** The same answer whatever the use case found: no account is told apart from another, or from none. */
const requestPasswordResetOperation: Public<NeedsOf<typeof requestPasswordReset>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(passwordResetRequestInput, body.fields, 'password reset request');
  await requestPasswordReset({ ...request.deps, log: logger }, clientAddress(request), input);
  return accepted({ reset_requested: true, expires_in_s: RESET_TOKEN_TTL_S });
};

const confirmPasswordResetOperation: Public<NeedsOf<typeof confirmPasswordReset>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(passwordResetConfirmInput, body.fields, 'password reset');
  const result = await confirmPasswordReset(request.deps, clientAddress(request), input);
  return signedIn(request, result, 200, { other_sessions_revoked: result.otherSessionsRevoked });
};

/** Session routes admit only a session principal (authenticate middleware): this narrows the type. */
function sessionOf(request: AuthenticatedRequest<unknown>): SessionCredential {
  const { credential } = request.principal;
  if (credential.kind !== 'session') throw new AppError('forbidden', 'Only a signed-in studio session may do this');
  return credential;
}

const logOutOperation: Operation<NeedsOf<typeof logOut>> = async (request) => {
  await logOut(request.deps, sessionOf(request).tokenHash);
  return { ...ok({ signed_out: true }), cookies: [clearSessionCookie(request.event)] };
};

const session: Operation<Pick<Ports, 'users' | 'accounts'>> = async (request) => {
  const { session: record } = sessionOf(request);
  const [user, account] = await Promise.all([request.deps.users.get(record.account_id, record.user_id), request.deps.accounts.get(record.account_id)]);
  if (!user || !account) throw new AppError('unauthorized', 'This session\'s user no longer exists: sign in again');
  return ok({ user: userView(user), account: accountAt(account, request.deps.now()), csrf_token: record.csrf_token, expires_at: record.expires_at });
};

const changePasswordOperation: Operation<NeedsOf<typeof changePassword>> = async (request) => {
  const body = await readRouteBody(request);
  const input = parseInput(changePasswordInput, body.fields, 'password change');
  const { otherSessionsRevoked } = await changePassword(request.deps, sessionOf(request), input);
  return ok({ password_changed: true, other_sessions_revoked: otherSessionsRevoked });
};

export const authOperations = {
  signUp: { public: signUpOperation },
  logIn: { public: logInOperation },
  requestPasswordReset: { public: requestPasswordResetOperation },
  confirmPasswordReset: { public: confirmPasswordResetOperation },
  logOut: logOutOperation,
  session,
  changePassword: changePasswordOperation,
};
