/** The social page's reads and their cache keys, so every section refreshes the same entries. */
import { unwrap } from '#client/result';
import { api } from '../../api/client';

export const SOCIAL_KEYS = {
  connections: ['social', 'connections'] as const,
  posts: (page: number) => ['social', 'posts', page] as const,
  allPosts: ['social', 'posts'] as const,
  videoChoices: ['social', 'video-choices'] as const,
};

export const POSTS_PER_PAGE = 10;

export const fetchConnections = async () => (await unwrap(api.GET('/social/connections'))).data;

export const fetchPosts = (page: number) => unwrap(api.GET('/social/posts', { params: { query: { page, per_page: POSTS_PER_PAGE } } }));

/** The newest finished videos with their product names, for the post form's picker. */
export async function fetchVideoChoices(): Promise<{ value: string; label: string }[]> {
  const [videos, products] = await Promise.all([
    unwrap(api.GET('/videos', { params: { query: { per_page: 100 } } })),
    unwrap(api.GET('/products', { params: { query: { per_page: 100 } } })),
  ]);
  const productName = new Map(products.data.map((product) => [product.id, product.name]));
  const created = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return videos.data.map((video) => ({
    value: String(video.id),
    label: `Video ${video.id} · ${productName.get(video.product_id) ?? `product ${video.product_id}`} · ${created.format(new Date(video.created_at))}`,
  }));
}
