/**
 * Every generation capability as configured (registry.ts), for runtimes that serve them all: the
 * local stack, and the Lambda functions that generate (each adds this in its handler module, so the
 * others bundle no engine). The hosted engines share one fal.ai key provider; every engine stores
 * through the wiring's blob store.
 */
import type { Engines } from '#ports/engines';
import { avatarEngines, type EngineBlobs } from './avatar-engine';
import { sharedFalKey } from './credentials';
import { hookEngines } from './hook-engine';
import { reactionEngines } from './reaction-engine';

export function configuredEngines(options: { blobs: EngineBlobs }): Engines {
  const parts = { falKey: sharedFalKey(), blobs: options.blobs };
  return { ...avatarEngines(parts), ...reactionEngines(parts), ...hookEngines() };
}
