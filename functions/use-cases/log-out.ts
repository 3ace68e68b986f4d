/** POST /auth/logout: the session is revoked at once; the cookie, even kept, is 401 from then on. */
import type { Ports } from '#ports/ports';

export async function logOut(deps: Pick<Ports, 'sessions'>, tokenHash: string): Promise<void> {
  await deps.sessions.revoke(tokenHash);
}
