import type { ReferenceResolver } from '#ports/reference-resolver';
import { createDirectMediaResolver } from './direct-media-resolver';

/** The resolver a runtime serves reference links with: direct media links, fetched with every check. */
export function referenceResolver(): ReferenceResolver {
  return createDirectMediaResolver();
}

/**
 * Time limits for a link a request waits for (a motion job's reference is fetched at the door). On
 * AWS the request has API Gateway's 29 s, which the clip's inspection, its face check (the face-check
 * function: up to 10 s) and storing it share, so the download and its probe get 12 s in all.
 */
const WITHIN_REQUEST = { connectTimeoutMs: 5_000, idleTimeoutMs: 8_000, deadlineMs: 12_000, probeTimeoutMs: 5_000 } as const;

/** The same checks and size caps as referenceResolver, within a request's time. */
export function requestReferenceResolver(): ReferenceResolver {
  return createDirectMediaResolver(WITHIN_REQUEST);
}
