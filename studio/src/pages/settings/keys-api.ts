/** Settings → API access: the account's keys (never the keys themselves), made and revoked. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { components } from '#client/schema';
import { api } from '../../api/client';

export type ApiKey = components['schemas']['ApiKey'];
export type CreatedApiKey = components['schemas']['CreatedApiKey'];
export type Scope = ApiKey['scopes'][number];
export type KeyMode = ApiKey['mode'];
export const KEY_MODES: { value: KeyMode; label: string; description: string }[] = [
  { value: 'live', label: 'Live', description: 'Your real products and videos; uses the allowance' },
  { value: 'test', label: 'Test', description: 'Separate test data, offline engine, no allowance; videos marked TEST' },
];
export const SCOPES: { value: Scope; label: string; description: string }[] = [
  { value: 'read', label: 'Read', description: 'See videos, jobs, products, usage' },
  { value: 'write', label: 'Write', description: 'Make videos, products, avatars' },
  { value: 'publish', label: 'Publish', description: 'Post videos to connected social accounts' },
];

const KEYS = ['keys'] as const;

export function useKeys() {
  return useQuery({ queryKey: KEYS, queryFn: async () => (await unwrap(api.GET('/keys'))).data });
}

export function useCreateKey() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: { name: string; scopes: Scope[]; mode: KeyMode }) => (await unwrap(api.POST('/keys', { body }))).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: KEYS }),
  });
}

export function useRevokeKey() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await unwrap(api.DELETE('/keys/{id}', { params: { path: { id } } }))).data,
    onSuccess: () => queries.invalidateQueries({ queryKey: KEYS }),
  });
}
