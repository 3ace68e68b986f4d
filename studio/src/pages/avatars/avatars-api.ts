/** The avatars calls, and polling while a portrait is being drawn. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Avatar } from '#client/types';
import { api } from '../../api/client';

export type { Avatar };
// A portrait from a prompt takes a few seconds: ask again every two while one is drawing.
const POLL_MS = 2_000;
const AVATARS = ['avatars'] as const;

export function useAvatars() {
  return useQuery({
    queryKey: AVATARS,
    queryFn: async () => (await unwrap(api.GET('/avatars'))).data,
    refetchInterval: (query) => (query.state.data?.some((avatar) => avatar.status === 'processing') ? POLL_MS : false),
  });
}

type NewAvatar = { prompt: string } | { image_upload_id: string };

export function useCreateAvatar() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewAvatar) => (await unwrap(api.POST('/avatars', { body }))).data,
    // Usage shows the avatar count too.
    onSuccess: () => Promise.all([queries.invalidateQueries({ queryKey: AVATARS }), queries.invalidateQueries({ queryKey: ['usage'] })]),
  });
}

export function useDeleteAvatar() {
  const queries = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => (await unwrap(api.DELETE('/avatars/{id}', { params: { path: { id } } }))).data,
    onSuccess: () => Promise.all([queries.invalidateQueries({ queryKey: AVATARS }), queries.invalidateQueries({ queryKey: ['usage'] })]),
  });
}
