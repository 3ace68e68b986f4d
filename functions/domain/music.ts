/**
 * The music library (docs/decisions.md, Music): the built-in beds every account has (domain/sound) and
 * the tracks an account uploads itself, levelled to the sound target when they are added. Jobs name
 * either by `music_id`.
 */
import { accountTrackId, BUILT_IN_TRACKS, isAccountTrackId, type BuiltInTrack, type MusicMood } from './sound';
import { MUSIC_MAX_BYTES } from './uploads';

/** What an account may add: the formats (by their bytes), the size and the length, and how many it keeps. */
export const MUSIC_LIMITS = {
  maxBytes: MUSIC_MAX_BYTES,
  maxDurationS: 600,
  /** Players round a 10:00 export to 600.0x s; a fraction over is still "10 minutes". */
  durationGraceS: 0.5,
  /** Tracks per account, whatever the plan: GET /music lists them whole. */
  perAccountCap: 50,
  nameMaxChars: 100,
} as const;

/** Every account track is stored as this: AAC 48 kHz stereo at 128 kbit/s in an .m4a, levelled to LOUDNESS_TARGET with a −1.5 dBTP ceiling. */
export const MUSIC_ENCODING = {
  codec: 'aac',
  sampleRate: 48_000,
  channels: 2,
  bitrate: '128k',
  contentType: 'audio/mp4',
  integratedLufs: -14,
  truePeakDbtp: -1.5,
} as const;

/** An account's own track as stored: `id` is its number (shown as "t<id>"). */
export interface MusicTrack {
  id: number;
  account_id: number;
  name: string;
  duration_s: number;
  /** The levelled .m4a in the blob store. */
  audio_key: string;
  size_bytes: number;
  created_at: string;
}

export interface MusicTrackView {
  id: string;
  name: string;
  mood: MusicMood | null;
  bpm: number | null;
  duration_s: number;
  built_in: boolean;
  /** Plays the track: the path of GET /music/{music_id}/audio (from the host's root), which redirects to a short-lived link to the file. */
  preview_url: string;
  created_at: string | null;
}

export const musicObjectPrefix = (accountId: number, trackId: number) => `accounts/${accountId}/music/${trackId}/`;
export const musicAudioKey = (accountId: number, trackId: number) => `${musicObjectPrefix(accountId, trackId)}audio.m4a`;

/** The number of an account track id ("t12" → 12), or undefined for anything else (a built-in slug, garbage). */
export const accountTrackNumber = (id: string): number | undefined => (isAccountTrackId(id) ? Number(id.slice(1)) : undefined);

/** The path that plays a track (relative to the API's prefix, as the client's base URL reads it). */
const musicAudioPath = (id: string) => `/music/${encodeURIComponent(id)}/audio`;

function builtInTrackView(track: BuiltInTrack, apiPrefix: string): MusicTrackView {
  return {
    id: track.id,
    name: track.name,
    mood: track.mood,
    bpm: track.bpm,
    duration_s: track.durationS,
    built_in: true,
    preview_url: `${apiPrefix}${musicAudioPath(track.id)}`,
    created_at: null,
  };
}

export function musicTrackView(track: MusicTrack, apiPrefix: string): MusicTrackView {
  const id = accountTrackId(track.id);
  return {
    id,
    name: track.name,
    mood: null,
    bpm: null,
    duration_s: track.duration_s,
    built_in: false,
    preview_url: `${apiPrefix}${musicAudioPath(id)}`,
    created_at: track.created_at,
  };
}

/** The whole library as GET /music answers it: the built-ins in their order, then the account's, newest first. */
export const musicLibraryView = (own: readonly MusicTrack[], apiPrefix: string): MusicTrackView[] => [
  ...BUILT_IN_TRACKS.map((track) => builtInTrackView(track, apiPrefix)),
  ...own.map((track) => musicTrackView(track, apiPrefix)),
];

/** A track's name from its file name when none is given: "Summer Mix (final).mp3" → "Summer Mix (final)". */
export function trackNameOf(given: string | undefined, filename: string | null | undefined): string {
  const trimmed = given?.trim();
  if (trimmed) return trimmed;
  // eslint-disable-next-line no-control-regex -- a file name is the sender's word: no control or bidirectional characters reach a name
  const base = (filename ?? '').replace(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/gu, '').replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
  return (base || 'Untitled track').slice(0, MUSIC_LIMITS.nameMaxChars);
}
