/** Signs a user in: a new session record, whose token only the answer's cookie carries. */
import { newSession, type NewSession } from '#domain/session';
import type { User } from '#domain/user';
import type { Ports } from '#ports/ports';

export async function startSession(deps: Pick<Ports, 'sessions' | 'now'>, user: User): Promise<NewSession> {
  const session = newSession(user.account_id, user.id, deps.now());
  await deps.sessions.create(session.hash, session.record);
  return session;
}
