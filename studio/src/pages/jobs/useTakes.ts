/** A preview job's takes (GET /videos/jobs/{id}/takes), oldest first; asked again whenever the job changes (a regenerate adds one). */
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Job } from '#client/types';
import { api } from '../../api/client';

export function useTakes(job: Pick<Job, 'id' | 'updated_at' | 'mode'>) {
  return useQuery({
    queryKey: ['job', job.id, 'takes', job.updated_at],
    queryFn: async () => (await unwrap(api.GET('/videos/jobs/{id}/takes', { params: { path: { id: job.id } } }))).data,
    // An auto job has no takes: nothing to ask.
    enabled: job.mode === 'preview',
    staleTime: Infinity,
  });
}
