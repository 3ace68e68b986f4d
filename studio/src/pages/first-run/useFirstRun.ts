/** The first-run steps from the account's products, avatars, newest jobs and finished videos. */
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { fetchNewestJobs, NEWEST_JOBS_KEY } from '../../api/newest-jobs';
import { useAvatars } from '../avatars/avatars-api';
import { useProductsForPicker } from '../products/products-api';
import { firstRun, type FirstRun } from './first-run';

/** Only the count is read: a page of one. */
function useVideoCount() {
  return useQuery({ queryKey: ['videos', 'count'], queryFn: async () => (await unwrap(api.GET('/videos', { params: { query: { per_page: 1 } } }))).meta.total });
}

export interface FirstRunState {
  /** Undefined until every part has answered, and when one could not: the checklist is left out rather than half-ticked. */
  data: FirstRun | undefined;
  /** Still asking. */
  pending: boolean;
  jobs: Awaited<ReturnType<typeof fetchNewestJobs>>;
}

export function useFirstRun(): FirstRunState {
  const products = useProductsForPicker();
  const avatars = useAvatars();
  const jobs = useQuery({ queryKey: NEWEST_JOBS_KEY, queryFn: fetchNewestJobs, staleTime: 0 });
  const videos = useVideoCount();
  const parts = [products, avatars, jobs, videos];
  if (!products.data || !avatars.data || !jobs.data || videos.data === undefined) return { data: undefined, pending: !parts.some((part) => part.isError), jobs: [] };
  return { data: firstRun({ products: products.data.data, avatars: avatars.data, jobs: jobs.data, videos: videos.data }), pending: false, jobs: jobs.data };
}
