/**
 * Who is signed in. The session lives in an HttpOnly cookie the page cannot read; GET /auth/session
 * tells the page whether it is valid and hands over the CSRF token that changes must carry.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '#client/errors';
import { unwrap } from '#client/result';
import type { components } from '#client/schema';
import { api, setCsrfToken } from '../api/client';

export type Session = components['schemas']['Session'];

interface SessionState {
  /** undefined while the first check runs; null when nobody is signed in. */
  session: Session | null | undefined;
  signIn(email: string, password: string): Promise<void>;
  signUp(email: string, password: string, name?: string): Promise<void>;
  signOut(): Promise<void>;
  /** Sets a new password with a mailed link's token and signs in; answers how many other sessions it signed out. */
  resetPassword(token: string, password: string): Promise<number>;
  /** Asks the API again (after a 401, or a password change). */
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionState | undefined>(undefined);

async function currentSession(): Promise<Session | null> {
  try {
    return (await unwrap(api.GET('/auth/session'))).data;
  } catch (error) {
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

const SESSION_QUERY = ['session'] as const;

export function SessionProvider({ children }: { children: ReactNode }) {
  const queries = useQueryClient();
  const { data: session } = useQuery({
    queryKey: SESSION_QUERY,
    // An unreachable API reads as signed out: the sign-in page then shows the actual error on submit.
    queryFn: () => currentSession().catch(() => null),
    staleTime: Infinity,
  });
  useEffect(() => setCsrfToken(session?.csrf_token), [session]);

  const adopt = useCallback(
    (next: Session | null) => {
      setCsrfToken(next?.csrf_token);
      queries.setQueryData(SESSION_QUERY, next);
    },
    [queries],
  );

  const value = useMemo<SessionState>(
    () => ({
      session,
      refresh: async () => adopt(await currentSession().catch(() => null)),
      async signIn(email, password) {
        await unwrap(api.POST('/auth/login', { body: { email, password } }));
        adopt(await currentSession());
      },
      async signUp(email, password, name) {
        await unwrap(api.POST('/auth/signup', { body: { email, password, ...(name ? { name } : {}) } }));
        adopt(await currentSession());
      },
      async resetPassword(token, password) {
        const { data } = await unwrap(api.POST('/auth/password-reset/confirm', { body: { token, password } }));
        adopt(await currentSession());
        return data.other_sessions_revoked;
      },
      async signOut() {
        await unwrap(api.POST('/auth/logout'));
        adopt(null);
        // Everything the signed-out person saw goes, but the session query itself: the provider watches it.
        queries.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_QUERY[0] });
      },
    }),
    [session, adopt, queries],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}
