/**
 * The finished video's sound (docs/decisions.md, Sound): what a job may ask for, the built-in library
 * of music beds and reaction effects, and the levels every video is brought to. The render wing makes
 * the sounds and mixes them; the API, the client, the CLI and the studio all read these lists.
 */

/** `auto`: an effect matched to the reaction, then the demo's audio; `music`: a bed under both; `none`: the demo's audio only. */
export const SOUND_MODES = ['auto', 'music', 'none'] as const;
export type SoundMode = (typeof SOUND_MODES)[number];

export const SOUND_DEFAULTS = { sound: 'auto' } as const satisfies { sound: SoundMode };

/** The platforms (TikTok, Reels, Shorts) play at about −14 LUFS; a true peak under −1 dBTP survives their re-encode. */
export const LOUDNESS_TARGET = {
  integratedLufs: -14,
  /** The tolerance a finished video is held to, in LU. */
  toleranceLu: 1,
  truePeakDbtp: -1,
} as const;

export const VOICE_LINE_MAX_CHARS = 100;

/** The emotions the engines perform; each has its own reaction effect. */
const SOUND_EMOTIONS = ['shocked', 'laughing', 'excited', 'crying', 'disgusted', 'mind_blown', 'skeptical', 'in_love', 'angry', 'happy'] as const;
export type SoundEmotion = (typeof SOUND_EMOTIONS)[number];

export const MUSIC_MOODS = ['upbeat', 'chill', 'dramatic', 'funny', 'epic', 'romantic', 'tense', 'playful'] as const;
export type MusicMood = (typeof MUSIC_MOODS)[number];

export interface BuiltInTrack {
  /** Stable: jobs and clients name a track by it. */
  id: string;
  name: string;
  mood: MusicMood;
  bpm: number;
  durationS: number;
}

/** The built-in beds, synthesised by the project itself (render/sound): deterministic, ours to redistribute. */
export const BUILT_IN_TRACKS: readonly BuiltInTrack[] = [
  { id: 'sunny-pop', name: 'Sunny Pop', mood: 'upbeat', bpm: 118, durationS: 60 },
  { id: 'lofi-study', name: 'Lo-fi Study', mood: 'chill', bpm: 80, durationS: 60 },
  { id: 'cinematic-rise', name: 'Cinematic Rise', mood: 'dramatic', bpm: 90, durationS: 60 },
  { id: 'bouncy-pizzicato', name: 'Bouncy Pizzicato', mood: 'funny', bpm: 124, durationS: 60 },
  { id: 'stadium-drums', name: 'Stadium Drums', mood: 'epic', bpm: 100, durationS: 60 },
  { id: 'soft-keys', name: 'Soft Keys', mood: 'romantic', bpm: 72, durationS: 60 },
  { id: 'ticking-pulse', name: 'Ticking Pulse', mood: 'tense', bpm: 128, durationS: 60 },
  { id: 'toy-box', name: 'Toy Box', mood: 'playful', bpm: 132, durationS: 60 },
];

export const builtInTrack = (id: string): BuiltInTrack | undefined => BUILT_IN_TRACKS.find((track) => track.id === id);

/** The reaction effect of each emotion: what plays under the person's reaction when `sound` is `auto`. */
export const REACTION_EFFECTS: Record<SoundEmotion, { id: string; name: string }> = {
  shocked: { id: 'riser-hit', name: 'Riser into a hit' },
  laughing: { id: 'laugh-swell', name: 'Laugh-track swell' },
  excited: { id: 'whoosh-pop', name: 'Whoosh and pop' },
  crying: { id: 'sad-strings', name: 'Sad strings' },
  disgusted: { id: 'squelch', name: 'Squelch' },
  mind_blown: { id: 'boom-shimmer', name: 'Boom and shimmer' },
  skeptical: { id: 'record-scratch', name: 'Record scratch' },
  in_love: { id: 'harp-gliss', name: 'Harp glissando' },
  angry: { id: 'distorted-stab', name: 'Distorted stab' },
  happy: { id: 'chime-sparkle', name: 'Chime sparkle' },
};

/** A built-in bed or effect (the sound bank makes it), as opposed to an account's own track. */
export const isBuiltInSoundId = (id: string) => builtInTrack(id) !== undefined || Object.values(REACTION_EFFECTS).some((effect) => effect.id === id);

const isSoundEmotion = (value: string | null | undefined): value is SoundEmotion =>
  typeof value === 'string' && (SOUND_EMOTIONS as readonly string[]).includes(value);

/** The effect for a reaction whose emotion is unknown (another engine's clip): the archetypal reaction. */
const DEFAULT_SOUND_EMOTION: SoundEmotion = 'shocked';

/**
 * When the demo has no sound of its own, `auto` keeps the video from falling silent: the bed whose
 * mood fits the reaction plays under the demo instead.
 */
const FALLBACK_BED_OF_EMOTION: Record<SoundEmotion, string> = {
  shocked: 'cinematic-rise',
  laughing: 'bouncy-pizzicato',
  excited: 'sunny-pop',
  crying: 'soft-keys',
  disgusted: 'toy-box',
  mind_blown: 'stadium-drums',
  skeptical: 'ticking-pulse',
  in_love: 'soft-keys',
  angry: 'ticking-pulse',
  happy: 'sunny-pop',
};

/** What a job's soundtrack is made of, decided once from the job's fields and the reaction's emotion. */
export type SoundPlan =
  | { kind: 'effect'; effectId: string; fallbackBedId: string }
  | { kind: 'music'; musicId: string }
  | { kind: 'none' };

export function soundPlanOf(input: { sound: SoundMode; musicId: string | null; emotion: string | null }): SoundPlan {
  if (input.sound === 'none') return { kind: 'none' };
  if (input.sound === 'music') {
    if (!input.musicId) throw new Error('sound=music needs a music_id (checked when the job is created)');
    return { kind: 'music', musicId: input.musicId };
  }
  const emotion = isSoundEmotion(input.emotion) ? input.emotion : DEFAULT_SOUND_EMOTION;
  return { kind: 'effect', effectId: REACTION_EFFECTS[emotion].id, fallbackBedId: FALLBACK_BED_OF_EMOTION[emotion] };
}

/** An account's own track id ("t12"); built-in ids are slugs, so the two never collide. */
export const accountTrackId = (sequence: number) => `t${sequence}`;
export const isAccountTrackId = (id: string) => /^t[1-9][0-9]{0,15}$/.test(id);

/** Where the built-in sounds live in the media bucket, rendered once per stack and shared by every account. */
export const BUILT_IN_SOUNDS_PREFIX = 'sounds/built-in/';

/** A built-in sound's file, under the version of the sounds it was rendered with (a new version renders anew). */
export const builtInSoundKey = (id: string, version: number) => `${BUILT_IN_SOUNDS_PREFIX}v${version}/${id}.m4a`;
