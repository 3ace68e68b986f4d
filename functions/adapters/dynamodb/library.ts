import { keys } from './keys';
import { countOfPrefix } from './pagination';

export const REACTION_PREFIX = 'REACTION#';

/** Saved reactions in the account's library (the video-jobs work adds them). */
export function countLibrary(accountId: number): Promise<number> {
  return countOfPrefix(keys.accountPartition(accountId), REACTION_PREFIX);
}
