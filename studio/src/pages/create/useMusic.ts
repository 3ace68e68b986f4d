/** The tracks a video can play under it: the built-in ones, then the account's own (GET /music). */
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';

export const MUSIC_KEY = ['music'] as const;

export function useMusic() {
  return useQuery({ queryKey: MUSIC_KEY, queryFn: async () => (await unwrap(api.GET('/music'))).data });
}
