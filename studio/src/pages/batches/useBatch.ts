/** One batch (GET /videos/batches/{id}) with its jobs as they are now, asked again every two seconds while any of them runs. */
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { batchSettled } from './batch-words';

const batchKey = (id: number) => ['batch', id] as const;

export function useBatch(id: number) {
  return useQuery({
    queryKey: batchKey(id),
    queryFn: async () => (await unwrap(api.GET('/videos/batches/{id}', { params: { path: { id } } }))).data,
    refetchInterval: (query) => (query.state.data && batchSettled(query.state.data) ? false : 2_000),
    staleTime: 0,
    enabled: Number.isInteger(id) && id > 0,
  });
}
