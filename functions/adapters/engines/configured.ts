/**
 * Every generation capability as configured (registry.ts), for runtimes that serve them all: the
 * local stack, and the Lambda functions that generate (each adds this in its handler module, so the
 * others bundle no engine). The hosted engines share one fal.ai key provider.
 */
import type { Engines } from '#ports/engines';
import { avatarEngines } from './avatar-engine';
import { sharedFalKey } from './credentials';
import { hookEngines } from './hook-engine';
import { reactionEngines } from './reaction-engine';

export function configuredEngines(): Engines {
  const falKey = sharedFalKey();
  return { ...avatarEngines({ falKey }), ...reactionEngines({ falKey }), ...hookEngines() };
}
