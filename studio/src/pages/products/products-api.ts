/** The products calls the page makes, and how often to ask again while a demo is being processed. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Product } from '#client/types';
import { api } from '../../api/client';
import { pollingUnlessLive, useLiveRecord, useLiveRecords } from '../../api/live';
import type { DemoIntakeBody } from './demo-intake';

export type { Product };
export const PER_PAGE = 10;
// Normalising a demo takes seconds to a minute: ask every few seconds, only while one is in progress.
const POLL_MS = 2_000;

const processing = (product: Product) => product.demo_video?.status === 'processing';

export function useProducts(page: number) {
  const queries = useQueryClient();
  const query = useQuery({
    queryKey: ['products', page],
    queryFn: () => unwrap(api.GET('/products', { params: { query: { page, per_page: PER_PAGE } } })),
    refetchInterval: (current) => {
      const ids = (current.state.data?.data ?? []).filter(processing).map((p) => p.id);
      return ids.length > 0 ? pollingUnlessLive('product', ids, POLL_MS) : false;
    },
    placeholderData: (previous) => previous,
  });
  // A demo pushed as ready (or failed) replaces its product in the page; the rest stays as it was.
  useLiveRecords('product', (query.data?.data ?? []).filter(processing).map((p) => p.id), (data) => {
    const pushed = data as Product;
    queries.setQueryData(['products', page], (current: typeof query.data) => current && { ...current, data: current.data.map((p) => (p.id === pushed.id ? pushed : p)) });
  });
  return query;
}

/**
 * Every product a picker offers, in one request (the API's largest page; an account with more searches
 * by name), asked again while a demo is being processed: it becomes usable on its own.
 */
export function useProductsForPicker() {
  return useQuery({
    queryKey: ['products', 'picker'],
    queryFn: () => unwrap(api.GET('/products', { params: { query: { per_page: 100 } } })),
    refetchInterval: (query) => (query.state.data?.data.some(processing) ? POLL_MS : false),
  });
}

/** One product; while its demo is processing, pushed over the live-updates socket (polled when that does not work). */
export function useProduct(id: number | undefined) {
  const queries = useQueryClient();
  const query = useQuery({
    queryKey: ['product', id],
    queryFn: async () => (await unwrap(api.GET('/products/{id}', { params: { path: { id: id! } } }))).data,
    enabled: id !== undefined,
    refetchInterval: (current) => (current.state.data && processing(current.state.data) ? pollingUnlessLive('product', id!, POLL_MS) : false),
  });
  useLiveRecord('product', id, query.data !== undefined && processing(query.data), (data) => queries.setQueryData(['product', id], data as Product));
  return query;
}

/** After any change the lists and the product are asked again. */
function useInvalidate() {
  const queries = useQueryClient();
  return () => Promise.all([queries.invalidateQueries({ queryKey: ['products'] }), queries.invalidateQueries({ queryKey: ['product'] })]);
}

export interface NewProduct {
  name: string;
  description?: string;
  demoUploadId?: string;
  /** With a demo: its reframe and the part kept. */
  intake?: DemoIntakeBody;
}

export function useCreateProduct() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ name, description, demoUploadId, intake }: NewProduct) =>
      (
        await unwrap(
          api.POST('/products', {
            body: { name, ...(description ? { description } : {}), ...(demoUploadId ? { demo_video_upload_id: demoUploadId, ...intake } : {}) },
          }),
        )
      ).data,
    onSuccess: invalidate,
  });
}

/** POST /products/sample: a product with the service's own demo clip, ready at once (or in seconds on a fresh stack). */
export function useCreateSampleProduct() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async () => (await unwrap(api.POST('/products/sample', { body: {} }))).data,
    onSuccess: invalidate,
  });
}

export function useUpdateProduct(id: number) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (changes: { name: string; description: string | null }) =>
      (await unwrap(api.PATCH('/products/{id}', { params: { path: { id } }, body: changes }))).data,
    onSuccess: invalidate,
  });
}

export function useDeleteProduct() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await unwrap(api.DELETE('/products/{id}', { params: { path: { id } } }))).data,
    // Forget the product rather than ask again: asking for it now would only answer 404.
    onSuccess: (_deleted, id) => {
      queries.removeQueries({ queryKey: ['product', id] });
      return queries.invalidateQueries({ queryKey: ['products'] });
    },
  });
}
