/**
 * Picks the adapter for each generative capability from configuration (DESIGN §4): `local` by
 * default, offline; `fal` (images, video) and `bedrock` (hook text) when configured. Adapters load
 * lazily, so a handler pays only for the engine it uses.
 */
import type { AvatarEngine, HookEngine, ReactionEngine } from '../../ports/engine';
import { optionalEnv } from '../../config';

export const ENGINE_SETTINGS = {
  avatar: { env: 'AVATAR_ENGINE', choices: ['local', 'fal'] },
  reaction: { env: 'REACTION_ENGINE', choices: ['local', 'fal'] },
  hooks: { env: 'HOOK_ENGINE', choices: ['local', 'bedrock'] },
} as const;

type Capability = keyof typeof ENGINE_SETTINGS;

export function engineChoice(capability: Capability): string {
  const setting = ENGINE_SETTINGS[capability];
  const value = optionalEnv(setting.env) ?? 'local';
  if (!(setting.choices as readonly string[]).includes(value)) {
    throw new Error(`${setting.env}=${value} is not one of ${setting.choices.join(', ')}`);
  }
  return value;
}

const overrides: { avatar?: AvatarEngine; reaction?: ReactionEngine; hooks?: HookEngine } = {};

/** Tests put a double behind the port; `undefined` restores configuration. */
export function overrideEngines(engines: typeof overrides): void {
  Object.assign(overrides, engines);
}

export async function avatarEngine(): Promise<AvatarEngine> {
  if (overrides.avatar) return overrides.avatar;
  if (engineChoice('avatar') === 'fal') return (await import('./fal/engine')).falAvatarEngine();
  return (await import('./local/engine')).createLocalEngine();
}

export async function reactionEngine(): Promise<ReactionEngine> {
  if (overrides.reaction) return overrides.reaction;
  if (engineChoice('reaction') === 'fal') return (await import('./fal/engine')).falReactionEngine();
  // Reactions animate photos and follow reference clips: the face module (tfjs) comes along only here.
  return (await import('./local/engine')).createLocalEngineWithFaces();
}

export async function hookEngine(): Promise<HookEngine> {
  if (overrides.hooks) return overrides.hooks;
  if (engineChoice('hooks') === 'bedrock') return (await import('./bedrock/hooks')).bedrockHookEngine();
  return (await import('./local-hook-writer')).localHookEngine();
}

/** The local engine answers within the request; hosted ones finish in the background. */
export function avatarGenerationIsInline(): boolean {
  return overrides.avatar ? overrides.avatar.name === 'local' : engineChoice('avatar') === 'local';
}
