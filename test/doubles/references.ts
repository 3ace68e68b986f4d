/**
 * A reference resolver that serves what it is told, for use-case and pipeline tests: a link's bytes
 * (written where the caller asked, as the real one renames its finished download there), or the
 * refusal a link gets; it keeps every call, so a test can tell how often a link was fetched and where
 * the file went. The real one, functions/adapters/reference/direct-media-resolver.ts, is tested over
 * a loopback server.
 */
import { writeFile } from 'node:fs/promises';
import { ReferenceRefused, type ReferenceResolver, type ResolveReferenceOptions } from '#ports/reference-resolver';

export interface RecordingResolver extends ReferenceResolver {
  readonly calls: { url: string; options: ResolveReferenceOptions }[];
}

/** `served`: a link's bytes, or what fetching it throws; a link it does not know is a 404 of its server. */
export function referenceResolver(served: Record<string, string | Error> = {}): RecordingResolver {
  const calls: RecordingResolver['calls'] = [];
  return {
    name: 'double',
    calls,
    async resolve(url, options) {
      calls.push({ url, options });
      const answer = served[url] ?? new ReferenceRefused('link', 'The reference link could not be opened (HTTP 404 Not Found): the file may be private, deleted, or the link expired.');
      if (answer instanceof Error) throw answer;
      await writeFile(options.destinationPath, answer);
      return { path: options.destinationPath, contentType: 'video/mp4', sizeBytes: Buffer.byteLength(answer), durationS: 4, finalUrl: url };
    },
  };
}
