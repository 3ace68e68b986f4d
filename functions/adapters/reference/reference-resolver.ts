import type { ReferenceResolver } from '#ports/reference-resolver';
import { createDirectMediaResolver } from './direct-media-resolver';

let override: ReferenceResolver | undefined;

/** Tests put a resolver that reaches a loopback server behind the port; `undefined` restores the default. */
export function overrideReferenceResolver(resolver: ReferenceResolver | undefined): void {
  override = resolver;
}

export function referenceResolver(): ReferenceResolver {
  return override ?? createDirectMediaResolver();
}
