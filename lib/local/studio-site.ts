/**
 * The studio's built pages (studio/dist) on the local server's own origin, beside the API: any GET
 * outside /api/ is a file of the build or, for the app's own paths, index.html (a single-page app).
 * sirv serves them: ranges, ETags, content types and path-traversal safety come with it.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import sirv from 'sirv';
import { STUDIO_STATIC_HEADERS, studioContentSecurityPolicy, type StudioOrigins } from '#lib/studio-headers';

export const STUDIO_DIST = resolve(__dirname, '..', '..', 'studio', 'dist');

export type StudioSite = (request: IncomingMessage, response: ServerResponse, notFound: () => void) => void;

export function studioSite(origins: StudioOrigins, directory = STUDIO_DIST): StudioSite | undefined {
  if (!existsSync(resolve(directory, 'index.html'))) return undefined;
  const policy = studioContentSecurityPolicy(origins);
  const files = sirv(directory, {
    single: true,
    etag: true,
    // Looks each file up per request instead of listing the build once: a rebuild while the stack runs
    // would otherwise leave sirv streaming files that are gone (an unhandled stream error).
    dev: true,
    // File names under assets/ carry a content hash; index.html is asked for again each time.
    setHeaders(response, pathname) {
      response.setHeader('Cache-Control', pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      response.setHeader('Content-Security-Policy', policy);
      for (const [name, value] of Object.entries(STUDIO_STATIC_HEADERS)) response.setHeader(name, value);
    },
  });
  return (request, response, notFound) => files(request, response, notFound);
}
