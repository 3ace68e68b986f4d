/** The social page's reads and their cache keys, so every section refreshes the same entries. */
import { unwrap } from '#client/result';
import { api } from '../../api/client';
import { videoName } from '../videos/video-name';

export const SOCIAL_KEYS = {
  connections: ['social', 'connections'] as const,
  posts: (page: number) => ['social', 'posts', page] as const,
  allPosts: ['social', 'posts'] as const,
  videoChoices: ['social', 'video-choices'] as const,
};

export const POSTS_PER_PAGE = 10;

export const fetchConnections = async () => (await unwrap(api.GET('/social/connections'))).data;

export const fetchPosts = (page: number) => unwrap(api.GET('/social/posts', { params: { query: { page, per_page: POSTS_PER_PAGE } } }));

export interface VideoChoice {
  value: string;
  /** What the picker shows: the name and when the video was made. */
  label: string;
  /** "<product name> · <hook>" (video-name.ts). */
  name: string;
}

/** The newest finished videos by name (their jobs' hooks, their products' names), for the post form's picker and the posts list. */
export async function fetchVideoChoices(): Promise<VideoChoice[]> {
  const [videos, products, jobs] = await Promise.all([
    unwrap(api.GET('/videos', { params: { query: { per_page: 100 } } })),
    unwrap(api.GET('/products', { params: { query: { per_page: 100 } } })),
    unwrap(api.GET('/videos/jobs', { params: { query: { limit: 100 } } })),
  ]);
  const productName = new Map(products.data.map((product) => [product.id, product.name]));
  const hook = new Map(jobs.data.map((job) => [job.id, job.hook_text]));
  const created = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return videos.data.map((video) => {
    const name = videoName({ id: video.id, productName: productName.get(video.product_id), hookText: hook.get(video.job_id) });
    return { value: String(video.id), label: `${name} · ${created.format(new Date(video.created_at))}`, name };
  });
}
