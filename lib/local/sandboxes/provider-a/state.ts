/**
 * The provider_a sandbox's state, passed explicitly to every part that reads or changes it: the
 * profiles and posts (kept in the optional state file), the injected platform failures, the clock,
 * the settings of this start, and the dirty flag that says the state file is behind.
 */
import { createSandboxClock, saveWhenDirty, stateFile, type FileBackedState, type SandboxClock } from '../sandbox-kit';
import { PROVIDER_A_DEFAULT_PLATFORMS, type PersistedState, type ProviderASandboxOptions, type StoredPost, type StoredProfile } from './contract';

export interface ProviderAState extends FileBackedState<PersistedState> {
  readonly clock: SandboxClock;
  /** How long a copy on a network that publishes asynchronously stays `id: "pending"`. */
  readonly publishDelayMs: number;
  readonly defaultPlatforms: readonly string[];
  readonly checkMedia: boolean;
  /** Keyed `${apiKey}\n${profileKey ?? ''}`. */
  readonly profiles: Map<string, StoredProfile>;
  readonly posts: Map<string, StoredPost>;
  /** Platforms failed by `control.failPlatform`, with what they answer. */
  readonly failing: Map<string, { code: number; message: string }>;
}

export function createProviderAState(options: ProviderASandboxOptions): ProviderAState {
  const store = options.stateFile ? stateFile<PersistedState>(options.stateFile) : undefined;
  const state: ProviderAState = {
    clock: createSandboxClock(options.timeScale ?? 1),
    publishDelayMs: options.publishDelayMs ?? 2_000,
    defaultPlatforms: [...(options.defaultPlatforms ?? PROVIDER_A_DEFAULT_PLATFORMS)],
    checkMedia: options.checkMedia ?? false,
    profiles: new Map(),
    posts: new Map(),
    failing: new Map(),
    dirty: false,
    store,
  };
  const loaded = store?.load();
  if (loaded?.version === 1) {
    for (const p of loaded.profiles) state.profiles.set(p.key, p);
    for (const p of loaded.posts) state.posts.set(p.id, p);
  }
  return state;
}

/** Writes the state file when something changed since the last write. */
export function persist(s: ProviderAState): void {
  saveWhenDirty(s, () => ({ version: 1, profiles: [...s.profiles.values()], posts: [...s.posts.values()] }));
}
