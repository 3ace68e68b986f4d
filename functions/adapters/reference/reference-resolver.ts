import type { ReferenceResolver } from '#ports/reference-resolver';
import { createDirectMediaResolver } from './direct-media-resolver';

/** The resolver a runtime serves reference links with: direct media links, fetched with every check. */
export function referenceResolver(): ReferenceResolver {
  return createDirectMediaResolver();
}
