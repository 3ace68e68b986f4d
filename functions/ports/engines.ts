/**
 * The generation engines a runtime serves. Each is loaded on first use, so a function that never
 * generates never loads one, and a Lambda bundles only the engines its handler module adds.
 */
import type { AvatarEngine, HookEngine, ReactionEngine } from './engine';

/** Which engine a use asks for: the configured one, or the offline (local) one whatever is configured. */
interface EngineRequest {
  /** Test mode's work (domain/test-mode `engineRequestOf`): nothing hosted is called or paid for. */
  offline?: boolean;
}

export interface Engines {
  /** The configured avatar engine; a hosted one may outlast a request (see `avatarIsInline`). */
  avatar(request?: EngineRequest): Promise<AvatarEngine>;
  /** The engine that generates within a request, so an API function needs no hosted adapter. */
  inlineAvatar(): Promise<AvatarEngine>;
  /** Whether the configured avatar engine answers within a request; if not, generation goes to the background. */
  readonly avatarIsInline: boolean;
  reaction(request?: EngineRequest): Promise<ReactionEngine>;
  hooks(request?: EngineRequest): Promise<HookEngine>;
}
