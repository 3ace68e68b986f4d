/** The account's avatars; only `ready` ones can be used in a video. */
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';

export function useAvatars() {
  return useQuery({ queryKey: ['avatars'], queryFn: async () => (await unwrap(api.GET('/avatars'))).data });
}
