/** The products calls the page makes, and how often to ask again while a demo is being processed. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Product } from '#client/types';
import { api } from '../../api/client';
import type { DemoIntakeBody } from './demo-intake';

export type { Product };
export const PER_PAGE = 10;
// Normalising a demo takes seconds to a minute: ask every few seconds, only while one is in progress.
const POLL_MS = 2_000;

const processing = (product: Product) => product.demo_video?.status === 'processing';

export function useProducts(page: number) {
  return useQuery({
    queryKey: ['products', page],
    queryFn: () => unwrap(api.GET('/products', { params: { query: { page, per_page: PER_PAGE } } })),
    refetchInterval: (query) => (query.state.data?.data.some(processing) ? POLL_MS : false),
    placeholderData: (previous) => previous,
  });
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

export function useProduct(id: number | undefined) {
  return useQuery({
    queryKey: ['product', id],
    queryFn: async () => (await unwrap(api.GET('/products/{id}', { params: { path: { id: id! } } }))).data,
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data && processing(query.state.data) ? POLL_MS : false),
  });
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
