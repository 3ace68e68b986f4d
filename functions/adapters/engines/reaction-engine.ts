import type { ReactionEngine } from '#ports/engine';
import { engineChoice } from './registry';

let override: ReactionEngine | undefined;

/** Tests put a double behind the port; `undefined` restores configuration. */
export function overrideReactionEngine(engine: ReactionEngine | undefined): void {
  override = engine;
}

export async function reactionEngine(): Promise<ReactionEngine> {
  if (override) return override;
  if (engineChoice('reaction') === 'fal') return (await import('./fal/engine')).falReactionEngine();
  // Reactions animate photos and follow reference clips: the face module (tfjs) comes along only here.
  return (await import('./local/engine-with-faces')).createLocalEngineWithFaces();
}
