/** The saved-reaction library, newest first. */
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '#client/result';
import { api } from '../../api/client';

export function useReactions() {
  return useQuery({ queryKey: ['reactions'], queryFn: async () => (await unwrap(api.GET('/reactions'))).data });
}
