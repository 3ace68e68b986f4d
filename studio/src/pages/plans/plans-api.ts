/** The plan table (GET /plans, public), the account's plan (GET /account) and changing it (PUT /account/plan, the session only). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { PlanName } from '#client/types';
import { api } from '../../api/client';

const ACCOUNT_KEY = ['account'] as const;

export function useAccount() {
  return useQuery({ queryKey: ACCOUNT_KEY, queryFn: async () => (await unwrap(api.GET('/account'))).data });
}

export function usePlans() {
  return useQuery({ queryKey: ['plans'], queryFn: async () => (await unwrap(api.GET('/plans'))).data, staleTime: 5 * 60_000 });
}

export function useChangePlan() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (plan: PlanName) => (await unwrap(api.PUT('/account/plan', { body: { plan } }))).data,
    onSuccess: (answer) => {
      queries.setQueryData(ACCOUNT_KEY, answer.account);
      // The allowance and caps follow the plan: every meter and "units left" reads them again.
      return Promise.all([queries.invalidateQueries({ queryKey: ['usage'] }), queries.invalidateQueries({ queryKey: ['session'] })]);
    },
  });
}
