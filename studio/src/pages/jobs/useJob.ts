/**
 * One job until it settles (done, failed, or a preview waiting for a decision): pushed over the live
 * updates socket while that works, asked for again every second otherwise.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Job } from '#client/types';
import { api } from '../../api/client';
import { pollingUnlessLive, useLiveRecord } from '../../api/live';
import { isSettled } from './job-words';

export const jobKey = (id: number) => ['job', id] as const;

/**
 * After an approve or a regenerate, which answer the job as it runs again: it stands as answered, and
 * the lists that show it and the units left are asked for again (the watch on jobs, JobWatcher, follows
 * it to tell when it is done).
 */
export function useJobRunsAgain() {
  const queries = useQueryClient();
  return (next: Job) => {
    queries.setQueryData(jobKey(next.id), next);
    void queries.invalidateQueries({ queryKey: ['jobs'] });
    void queries.invalidateQueries({ queryKey: ['usage'] });
    void queries.invalidateQueries({ queryKey: ['batch'] });
  };
}

export function useJob(id: number) {
  const queries = useQueryClient();
  const query = useQuery({
    queryKey: jobKey(id),
    queryFn: async () => (await unwrap(api.GET('/videos/jobs/{id}', { params: { path: { id } } }))).data,
    refetchInterval: (current) => (current.state.data && isSettled(current.state.data) ? false : pollingUnlessLive('job', id, 1_000)),
    staleTime: 0,
  });
  const settled = query.data !== undefined && isSettled(query.data);
  useLiveRecord('job', id, !settled, (data) => queries.setQueryData(jobKey(id), data as Job));
  return query;
}
