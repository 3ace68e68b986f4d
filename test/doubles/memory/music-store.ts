/** Music tracks in memory, with the DynamoDB store's conditions: the cap on create, ids never reused. */
import type { MusicTrack } from '#domain/music';
import { musicFull, type MusicStore } from '#ports/music-store';

const trackKey = (accountId: number, trackId: number) => `${accountId}/${trackId}`;

export class MemoryMusicStore implements MusicStore {
  readonly tracks = new Map<string, MusicTrack>();
  private lastId = 0;

  async newTrackId(): Promise<number> {
    return ++this.lastId;
  }

  async create(track: MusicTrack, cap: number): Promise<void> {
    const key = trackKey(track.account_id, track.id);
    if (this.tracks.has(key)) throw new Error(`music item ${track.id} of account ${track.account_id} already exists`);
    // Checked and written without yielding, as the DynamoDB transaction is one write: racing creates cannot both pass.
    if (this.countOf(track.account_id) >= cap) throw musicFull(cap);
    this.tracks.set(key, structuredClone(track));
  }

  async count(accountId: number): Promise<number> {
    return this.countOf(accountId);
  }

  private countOf(accountId: number): number {
    return [...this.tracks.values()].filter((t) => t.account_id === accountId).length;
  }

  async get(accountId: number, trackId: number): Promise<MusicTrack | undefined> {
    const track = this.tracks.get(trackKey(accountId, trackId));
    return track && structuredClone(track);
  }

  async list(accountId: number): Promise<MusicTrack[]> {
    return [...this.tracks.values()].filter((t) => t.account_id === accountId).sort((a, b) => b.id - a.id).map((t) => structuredClone(t));
  }

  async delete(accountId: number, trackId: number): Promise<MusicTrack | undefined> {
    const key = trackKey(accountId, trackId);
    const track = this.tracks.get(key);
    this.tracks.delete(key);
    return track;
  }
}
