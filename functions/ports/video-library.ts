/** Finished videos. The pipeline's Finalize records them (JobStore.finishWithVideo); the API reads and deletes them. */
import type { Video } from '#domain/video';
import type { CountedPage, PagedCollection } from './counted-collection';

export type VideoPage = CountedPage<Video>;

export interface VideoLibrary extends PagedCollection<Video> {
  /** Videos are numbered apart from jobs; Compose takes the id before it uploads the files. */
  /** A new video id: unique, and above every earlier one of the account. */
  newVideoId(accountId: number): Promise<number>;
  /** The deleted record (its objects are the caller's to remove), or undefined when there was none. */
  delete(accountId: number, videoId: number): Promise<Video | undefined>;
}
