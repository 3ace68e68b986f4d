/** Finished videos. The pipeline's Finalize records them (JobStore.finishWithVideo); the API reads and deletes them. */
import type { Video } from '#domain/video';

export interface VideoPage {
  items: Video[];
  total: number;
}

export interface VideoLibrary {
  /** Videos are numbered apart from jobs; Compose takes the id before it uploads the files. */
  /** A new video id: unique, and above every earlier one of the account. */
  newVideoId(accountId: number): Promise<number>;
  get(accountId: number, videoId: number): Promise<Video | undefined>;
  /** One page, newest first, with the account's video count. */
  list(accountId: number, page: number, perPage: number): Promise<VideoPage>;
  /** The deleted record (its objects are the caller's to remove), or undefined when there was none. */
  delete(accountId: number, videoId: number): Promise<Video | undefined>;
}
