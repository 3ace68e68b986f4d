/**
 * Video names (video-name.ts) from what the API answers: a video names its job and product; the job
 * holds the hook, the product its name. The newest hundred jobs come in one request; an older job, a
 * video or a product is asked for once, under the keys the job, video and product pages use, so a page
 * that shows them fills the cache for the others. Each is kept a minute.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Job, Product, Video } from '#client/types';
import { api } from '../../api/client';
import { jobKey } from '../jobs/useJob';
import { videoName } from './video-name';

const KEPT_MS = 60_000;

type VideoRef = Pick<Video, 'id' | 'job_id' | 'product_id'>;

export const videoKey = (id: number) => ['video', id] as const;
const productKey = (id: number) => ['product', id] as const;

export const fetchVideo = async (id: number): Promise<Video> => (await unwrap(api.GET('/videos/{id}', { params: { path: { id } } }))).data;
const fetchJob = async (id: number): Promise<Job> => (await unwrap(api.GET('/videos/jobs/{id}', { params: { path: { id } } }))).data;
const fetchProduct = async (id: number): Promise<Product> => (await unwrap(api.GET('/products/{id}', { params: { path: { id } } }))).data;

const distinct = (ids: number[]) => [...new Set(ids)];

/** Under the jobs list's key: a new job (which invalidates it) is named at once. */
const NEWEST_JOBS_KEY = ['jobs', 'names'] as const;
const fetchNewestJobs = async (): Promise<Job[]> => (await unwrap(api.GET('/videos/jobs', { params: { query: { limit: 100 } } }))).data;

/** Product names by id, for lists that hold product ids (a deleted product has none). */
export function useProductNames(ids: number[]): (id: number) => string | undefined {
  const products = useQueries({
    queries: distinct(ids).map((id) => ({ queryKey: productKey(id), queryFn: () => fetchProduct(id), staleTime: KEPT_MS, retry: false })),
  });
  const names = new Map(products.flatMap((query) => (query.data ? [[query.data.id, query.data.name] as const] : [])));
  return (id) => names.get(id);
}

/** Names of videos by id; `known` spares asking for videos the page already holds. */
export function useVideoNames(ids: number[], known: readonly VideoRef[] = []): (id: number) => string {
  const refs = new Map(known.map((video) => [video.id, video]));
  const videos = useQueries({
    queries: distinct(ids.filter((id) => !refs.has(id))).map((id) => ({ queryKey: videoKey(id), queryFn: () => fetchVideo(id), staleTime: KEPT_MS, retry: false })),
  });
  for (const query of videos) if (query.data) refs.set(query.data.id, query.data);
  const wanted = ids.flatMap((id) => refs.get(id) ?? []);
  const newest = useQuery({ queryKey: NEWEST_JOBS_KEY, queryFn: fetchNewestJobs, staleTime: KEPT_MS, enabled: wanted.length > 0 });
  const hooks = new Map(newest.data?.map((job) => [job.id, job.hook_text] as const));
  const older = newest.isFetched ? distinct(wanted.map((video) => video.job_id)).filter((id) => !hooks.has(id)) : [];
  const jobs = useQueries({
    queries: older.map((id) => ({ queryKey: jobKey(id), queryFn: () => fetchJob(id), staleTime: KEPT_MS, retry: false })),
  });
  for (const query of jobs) if (query.data) hooks.set(query.data.id, query.data.hook_text);
  const productName = useProductNames(wanted.map((video) => video.product_id));
  return (id) => {
    const video = refs.get(id);
    return videoName({ id, productName: video && productName(video.product_id), hookText: video && hooks.get(video.job_id) });
  };
}

/** The hook of a video's job, for a caption that starts from it: undefined until known, null when it has none. */
export function useVideoHook(id: number | null): string | null | undefined {
  const video = useQuery({ queryKey: videoKey(id ?? 0), queryFn: () => fetchVideo(id!), enabled: id !== null, staleTime: KEPT_MS, retry: false });
  const jobId = video.data?.job_id;
  const job = useQuery({ queryKey: jobKey(jobId ?? 0), queryFn: () => fetchJob(jobId!), enabled: jobId !== undefined, staleTime: KEPT_MS, retry: false });
  if (id === null || video.isError || job.isError) return null;
  return job.data ? job.data.hook_text : undefined;
}
