/** POST /auth/logout: the session is revoked at once; the cookie, even kept, is 401 from then on. */
import type { Dependencies } from '#ports/dependencies';

export async function logOut(deps: Pick<Dependencies, 'sessions'>, tokenHash: string): Promise<void> {
  await deps.sessions.revoke(tokenHash);
}
