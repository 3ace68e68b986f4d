import type { Engines } from '#ports/engines';
import { engineChoice } from './registry';
import { once } from './once';

export function hookEngines(): Pick<Engines, 'hooks'> {
  const local = once(async () => (await import('./local-hook-writer')).localHookEngine());
  const hosted = once(async () => (await import('./bedrock/hooks')).bedrockHookEngine());
  return {
    hooks: (request) => (engineChoice('hooks') === 'bedrock' && !request?.offline ? hosted() : local()),
  };
}
