/** The avatars calls, and following a portrait while it is being drawn. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import type { Avatar } from '#client/types';
import { api } from '../../api/client';
import { pollingUnlessLive, useLiveRecords } from '../../api/live';

export type { Avatar };
// A portrait from a prompt takes a few seconds: ask again every two while one is drawing.
const POLL_MS = 2_000;
const AVATARS = ['avatars'] as const;

const drawing = (avatar: Avatar) => avatar.status === 'processing';

/** The avatars; a portrait being drawn is pushed over the live-updates socket when done (polled when that does not work). */
export function useAvatars() {
  const queries = useQueryClient();
  const query = useQuery({
    queryKey: AVATARS,
    queryFn: async () => (await unwrap(api.GET('/avatars'))).data,
    refetchInterval: (current) => {
      const ids = (current.state.data ?? []).filter(drawing).map((a) => a.id);
      return ids.length > 0 ? pollingUnlessLive('avatar', ids, POLL_MS) : false;
    },
  });
  useLiveRecords('avatar', (query.data ?? []).filter(drawing).map((a) => a.id), (data) => {
    const pushed = data as Avatar;
    queries.setQueryData(AVATARS, (current: Avatar[] | undefined) => current?.map((a) => (a.id === pushed.id ? pushed : a)));
  });
  return query;
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
