/**
 * The provider_b sandbox's state, passed explicitly to every part that reads or changes it: the keys
 * (with their accounts), posts and results (kept in the optional state file), the injected platform
 * failures, the clock, the settings of this start, and the dirty flag that says the file is behind.
 */
import { createSandboxClock, saveWhenDirty, stateFile, type FileBackedState, type SandboxClock } from '../sandbox-kit';
import { PROVIDER_B_DEFAULT_ACCOUNTS, type PersistedState, type ProviderBSandboxOptions, type StoredKey, type StoredPost, type StoredResult } from './contract';

export interface ProviderBState extends FileBackedState<PersistedState> {
  readonly clock: SandboxClock;
  /** How long a post stays `processing`. */
  readonly publishDelayMs: number;
  readonly defaultAccounts: ReadonlyArray<{ platform: string; status: 'connected' | 'disconnected' }>;
  readonly checkMedia: boolean;
  readonly keys: Map<string, StoredKey>;
  readonly posts: Map<string, StoredPost>;
  readonly results: Map<string, StoredResult>;
  /** Platforms failed by `control.failPlatform`, with the error their results carry. */
  readonly failing: Map<string, string>;
  /** The server's origin, for the `next` links of list answers (set once the server listens). */
  origin: string;
}

export function createProviderBState(options: ProviderBSandboxOptions): ProviderBState {
  const store = options.stateFile ? stateFile<PersistedState>(options.stateFile) : undefined;
  const state: ProviderBState = {
    clock: createSandboxClock(options.timeScale ?? 1),
    publishDelayMs: options.publishDelayMs ?? 3_000,
    defaultAccounts: options.defaultAccounts ?? PROVIDER_B_DEFAULT_ACCOUNTS,
    checkMedia: options.checkMedia ?? false,
    keys: new Map(),
    posts: new Map(),
    results: new Map(),
    failing: new Map(),
    dirty: false,
    origin: '',
    store,
  };
  const loaded = store?.load();
  if (loaded?.version === 1) {
    for (const k of loaded.keys) state.keys.set(k.apiKey, k);
    for (const p of loaded.posts) state.posts.set(p.id, p);
    for (const r of loaded.results) state.results.set(r.id, r);
  }
  return state;
}

/** Writes the state file when something changed since the last write. */
export function persist(s: ProviderBState): void {
  saveWhenDirty(s, () => ({ version: 1, keys: [...s.keys.values()], posts: [...s.posts.values()], results: [...s.results.values()] }));
}
