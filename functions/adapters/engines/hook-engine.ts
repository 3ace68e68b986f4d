import type { HookEngine } from '#ports/engine';
import { engineChoice } from './registry';

let override: HookEngine | undefined;

/** Tests put a double behind the port; `undefined` restores configuration. */
export function overrideHookEngine(engine: HookEngine | undefined): void {
  override = engine;
}

export async function hookEngine(): Promise<HookEngine> {
  if (override) return override;
  if (engineChoice('hooks') === 'bedrock') return (await import('./bedrock/hooks')).bedrockHookEngine();
  return (await import('./local-hook-writer')).localHookEngine();
}
