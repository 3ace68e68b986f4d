/** Finished videos in memory; the job store double records into it as Finalize's write does. */
import type { Video } from '#domain/video';
import type { VideoLibrary, VideoPage } from '#ports/video-library';

const key = (accountId: number, videoId: number) => `${accountId}/${videoId}`;

export class MemoryVideoLibrary implements VideoLibrary {
  private readonly videos = new Map<string, Video>();
  private lastId = 0;

  async newVideoId(): Promise<number> {
    return ++this.lastId;
  }

  /** A video record written with its job's move to done (JobStore.finishWithVideo); false when one exists. */
  putNew(video: Video): boolean {
    if (this.videos.has(key(video.account_id, video.id))) return false;
    this.videos.set(key(video.account_id, video.id), { ...video });
    return true;
  }

  async get(accountId: number, videoId: number): Promise<Video | undefined> {
    const video = this.videos.get(key(accountId, videoId));
    return video && { ...video };
  }

  async list(accountId: number, page: number, perPage: number): Promise<VideoPage> {
    // Newest first by id, as the table's keys order them: an id is taken when Compose begins, so a video begun later is newer even if it finished first.
    const mine = [...this.videos.values()].filter((v) => v.account_id === accountId).sort((a, b) => b.id - a.id);
    return { items: mine.slice((page - 1) * perPage, page * perPage).map((v) => ({ ...v })), total: mine.length };
  }

  async delete(accountId: number, videoId: number): Promise<Video | undefined> {
    const video = this.videos.get(key(accountId, videoId));
    this.videos.delete(key(accountId, videoId));
    return video;
  }
}
