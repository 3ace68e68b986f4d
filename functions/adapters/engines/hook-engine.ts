import type { Engines } from '#ports/engines';
import { engineChoice } from './registry';
import { once } from './once';

export function hookEngines(): Pick<Engines, 'hooks'> {
  return {
    hooks: once(async () => {
      if (engineChoice('hooks') === 'bedrock') return (await import('./bedrock/hooks')).bedrockHookEngine();
      return (await import('./local-hook-writer')).localHookEngine();
    }),
  };
}
