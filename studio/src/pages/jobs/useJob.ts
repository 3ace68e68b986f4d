/** One job, asked for again every second until it settles (done, failed, or a preview waiting for a decision). */
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { isSettled } from './job-words';

export const jobKey = (id: number) => ['job', id] as const;

export function useJob(id: number) {
  return useQuery({
    queryKey: jobKey(id),
    queryFn: async () => (await unwrap(api.GET('/videos/jobs/{id}', { params: { path: { id } } }))).data,
    refetchInterval: (query) => (query.state.data && isSettled(query.state.data) ? false : 1_000),
    staleTime: 0,
  });
}
