/**
 * A motion job's reference link (`reference_url`), taken at the door as an uploaded clip is: fetched by
 * the reference resolver within the pipeline's limits to a scratch file, judged by the same
 * checkReferenceClip (a face included), and handed on to be stored as the job's reference before any
 * unit is reserved. The pipeline then renders exactly the bytes that were judged: it never fetches
 * the link again, so what the link serves later cannot change the job.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { AppError, type ErrorCode } from '#domain/errors';
import type { Ports } from '#ports/ports';
import { isEngineError } from '#ports/engine';
import { REFERENCE_CLIP_LIMITS, ReferenceRefused, type ReferenceRefusal } from '#ports/reference-resolver';
import { checkReferenceClip, type CheckedReference, type ReferenceClipDeps } from './reference-clip';

export type ReferenceLinkDeps = ReferenceClipDeps & Pick<Ports, 'references'>;

/** How long a client waits before asking again after the link's server did not answer properly. */
const RETRY_AFTER_S = '30';

/**
 * Runs `work` on the linked clip once it passed every check; the scratch copy is removed after,
 * whatever happens. A dry run calls it too: it fetches and judges, and stores nothing.
 */
export async function withLinkedReference<T>(deps: ReferenceLinkDeps, url: string, work: (reference: CheckedReference) => Promise<T>, field = 'reference_url'): Promise<T> {
  return withScratchDir(async (dir) => work(await fetchAndCheck(deps, url, join(dir, 'reference'), field)));
}

/** How many links of one request are fetched and judged at once. */
const PARALLEL_LINKS = 4;

/**
 * Several links at once (a batch's variants): each distinct one fetched and judged once, up to four
 * side by side, since each may take the resolver's whole download budget and one after another they
 * would outlast the request. Where several are refused, the refusal of the first in `links`' order
 * is the answer (the same request always gets the same one), named by `refusalOf`. `work` gets every
 * checked clip by its link; the scratch copies are removed after, whatever happens.
 */
export async function withLinkedReferences<T>(
  deps: ReferenceLinkDeps,
  links: readonly string[],
  refusalOf: (link: string, error: unknown) => unknown,
  work: (references: ReadonlyMap<string, CheckedReference>) => Promise<T>,
): Promise<T> {
  const distinct = [...new Set(links)];
  if (distinct.length === 0) return work(new Map());
  return withScratchDir(async (dir) => {
    const parallel = pLimit(PARALLEL_LINKS);
    const settled = await Promise.allSettled(distinct.map((link, i) => parallel(() => fetchAndCheck(deps, link, join(dir, `reference-${i}`), 'reference_url'))));
    const references = new Map<string, CheckedReference>();
    for (const [i, outcome] of settled.entries()) {
      if (outcome.status === 'rejected') throw refusalOf(distinct[i]!, outcome.reason);
      references.set(distinct[i]!, outcome.value);
    }
    return work(references);
  });
}

async function fetchAndCheck(deps: ReferenceLinkDeps, url: string, path: string, field: string): Promise<CheckedReference> {
  await deps.references.resolve(url, { ...REFERENCE_CLIP_LIMITS, destinationPath: path }).catch((error: unknown) => {
    throw linkRefusal(field, error);
  });
  return { path, clip: await checkReferenceClip(deps, path, field) };
}

async function withScratchDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'rs-reference-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A refused link answers as the same refusal of an upload or of another linked file would: the
 * link itself 400, too large 413, not a video 415, a video that cannot be used 422, each with the
 * resolver's advice; a server that did not answer properly 503 to retry. Anything else (our disk,
 * a missing ffprobe) is ours: a 500.
 */
function linkRefusal(field: string, error: unknown): unknown {
  if (!isEngineError(error)) return error;
  if (error.code === 'invalid_input') {
    const refusal = error instanceof ReferenceRefused ? error.refusal : 'link';
    return new AppError(REFUSAL_CODES[refusal], `${field}: ${error.message}`, { cause: error });
  }
  if (error.retryable) {
    return new AppError('upstream_unavailable', `${field}: ${error.message} Nothing was reserved.`, { cause: error, headers: { 'retry-after': RETRY_AFTER_S } });
  }
  return error;
}

const REFUSAL_CODES: Readonly<Record<ReferenceRefusal, ErrorCode>> = {
  link: 'bad_request',
  too_large: 'payload_too_large',
  not_video: 'unsupported_media_type',
  unreadable: 'invalid_media',
};
