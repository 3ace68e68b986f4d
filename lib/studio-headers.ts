/**
 * The security headers every studio page is served with, locally and by CloudFront: one list, so the
 * two runtimes cannot drift. The page talks only to its own origin (the API), to storage for direct
 * uploads and to the live-updates socket, and plays media from where the API's links point.
 */
export interface StudioOrigins {
  /** Where media links point (s3rver locally, the media CDN on AWS). */
  media: string[];
  /** Where direct uploads are posted (s3rver locally, the bucket on AWS). */
  uploads: string[];
  /** The live-updates WebSocket (on AWS the WebSocket API's stage; locally it is the page's own origin, which 'self' covers). */
  sockets?: string[];
}

export function studioContentSecurityPolicy(origins: StudioOrigins): string {
  const media = origins.media.join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Mantine sets component sizes in style attributes.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${media}`,
    `media-src 'self' blob: ${media}`,
    `connect-src ${["'self'", ...origins.uploads, ...(origins.sockets ?? [])].join(' ')}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const STUDIO_STATIC_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
} as const;
