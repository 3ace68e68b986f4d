import type { AvatarEngine } from '#ports/engine';
import { engineChoice } from './registry';

let override: AvatarEngine | undefined;

/** Tests put a double behind the port; `undefined` restores configuration. */
export function overrideAvatarEngine(engine: AvatarEngine | undefined): void {
  override = engine;
}

export async function avatarEngine(): Promise<AvatarEngine> {
  if (override) return override;
  if (engineChoice('avatar') === 'fal') return (await import('./fal/engine')).falAvatarEngine();
  return (await import('./local/engine')).createLocalEngine();
}

/** The local engine answers within the request; hosted ones finish in the background. */
export function avatarGenerationIsInline(): boolean {
  return override ? override.name === 'local' : engineChoice('avatar') === 'local';
}

/**
 * The engine that generates within a request: only ever the local one, so the API function does not
 * bundle the hosted adapters (the background worker does).
 */
export async function inlineAvatarEngine(): Promise<AvatarEngine> {
  if (override) return override;
  return (await import('./local/engine')).createLocalEngine();
}
