/** GET /usage: the plan, this period, and how much of each allowance is spent. */
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { components } from '#client/schema';
import { api } from '../../api/client';

export type Usage = components['schemas']['Usage'];

export function useUsage() {
  // Reservations change as jobs run elsewhere; a slow refresh keeps the page honest without hammering.
  return useQuery({ queryKey: ['usage'], queryFn: async () => (await unwrap(api.GET('/usage'))).data, refetchInterval: 30_000 });
}
