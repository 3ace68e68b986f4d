/**
 * Which adapter serves each generative capability (docs/engines.md): `local` by default, offline;
 * `fal` (images, video) and `bedrock` (hook text) when configured. Each capability has its own module
 * (avatar-engine.ts, reaction-engine.ts, hook-engine.ts) so a Lambda bundles only the engines its
 * handler module adds; configured.ts gathers them all for the runtimes that generate everything.
 */
import { optionalEnv } from '#functions/config';

export const ENGINE_SETTINGS = {
  avatar: { env: 'AVATAR_ENGINE', choices: ['local', 'fal'] },
  reaction: { env: 'REACTION_ENGINE', choices: ['local', 'fal'] },
  hooks: { env: 'HOOK_ENGINE', choices: ['local', 'bedrock'] },
} as const;

type Capability = keyof typeof ENGINE_SETTINGS;
export type EngineName<C extends Capability> = (typeof ENGINE_SETTINGS)[C]['choices'][number];

export function engineChoice<C extends Capability>(capability: C): EngineName<C> {
  const setting = ENGINE_SETTINGS[capability];
  const value = optionalEnv(setting.env) ?? 'local';
  if (!(setting.choices as readonly string[]).includes(value)) {
    throw new Error(`${setting.env}=${value} is not one of ${setting.choices.join(', ')}`);
  }
  return value as EngineName<C>;
}
