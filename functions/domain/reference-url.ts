/**
 * Which reference links a motion job may name (docs/engines.md). The same rule runs twice:
 * when POST /videos (or regenerate) arrives, where a refusal is a 400, and at download time on every
 * redirect hop, where the resolver turns the same verdict into a job failure. Keeping it in one pure
 * function means a redirect can never reach a URL the request itself could not have named.
 *
 * The rule: a WHATWG-parsable URL of at most 2048 characters, scheme https, no user name or password,
 * the default port, and a host name (never an IP literal) that is one of the allowed domains or a
 * subdomain of one. Resolving the host and refusing private addresses is the resolver's job: DNS
 * answers change, so that check belongs to the moment of connection.
 */
import { isIP } from 'node:net';
import { AppError } from './errors';

type ReferencePlatform = 'TikTok' | 'Instagram' | 'YouTube' | 'Facebook' | 'Snapchat' | 'X';

export interface ReferenceHost {
  /** A registrable domain. The domain itself and every subdomain of it match; nothing else does. */
  domain: string;
  platform: ReferencePlatform;
  /** What the platform serves from it: pages and short links, or the media files themselves. */
  serves: string;
}

/**
 * The allow-list: short-video platforms and the CDN domains that serve their media files directly.
 * The default resolver only downloads media files, so a link to a platform page is accepted here and
 * then refused at download with a message asking for the file's own address; page domains stay on the
 * list because their short links redirect to the CDNs below (each hop is checked again).
 *
 * Matching is by whole labels: `v16m.tiktokcdn.com` matches `tiktokcdn.com`, while `evil-tiktok.com`
 * and `tiktok.com.evil.com` match nothing. Add a domain here only if every host under it is run by
 * the platform (no user-controlled subdomains).
 */
export const REFERENCE_HOSTS: readonly ReferenceHost[] = Object.freeze([
  { domain: 'tiktok.com', platform: 'TikTok', serves: 'pages (www, m), short links (vm, vt), web playback (v16-webapp)' },
  { domain: 'tiktokcdn.com', platform: 'TikTok', serves: 'video files (v16m, v19, v77...)' },
  { domain: 'tiktokcdn-us.com', platform: 'TikTok', serves: 'video files, US region' },
  { domain: 'tiktokcdn-eu.com', platform: 'TikTok', serves: 'video files, EU region' },
  { domain: 'tiktokv.com', platform: 'TikTok', serves: 'video playback endpoints and files' },
  { domain: 'instagram.com', platform: 'Instagram', serves: 'pages (reels, posts)' },
  { domain: 'cdninstagram.com', platform: 'Instagram', serves: 'video files (scontent-*)' },
  { domain: 'youtube.com', platform: 'YouTube', serves: 'Shorts pages (www, m)' },
  { domain: 'youtu.be', platform: 'YouTube', serves: 'short links' },
  { domain: 'googlevideo.com', platform: 'YouTube', serves: 'video files (rr*---sn-*)' },
  { domain: 'facebook.com', platform: 'Facebook', serves: 'pages (reels, watch)' },
  { domain: 'fb.watch', platform: 'Facebook', serves: 'short links' },
  { domain: 'fb.com', platform: 'Facebook', serves: 'short links and pages' },
  { domain: 'fbcdn.net', platform: 'Facebook', serves: 'video files of Facebook and Instagram (video-*, scontent-*)' },
  { domain: 'snapchat.com', platform: 'Snapchat', serves: 'Spotlight and story pages (www, story)' },
  { domain: 'sc-cdn.net', platform: 'Snapchat', serves: 'video files (cf-st, bolt-gcdn)' },
  { domain: 'x.com', platform: 'X', serves: 'post pages' },
  { domain: 'twitter.com', platform: 'X', serves: 'post pages (legacy domain)' },
  { domain: 't.co', platform: 'X', serves: 'short links' },
  { domain: 'twimg.com', platform: 'X', serves: 'video files (video.twimg.com)' },
] satisfies ReferenceHost[]);

export const REFERENCE_URL_MAX_LENGTH = 2048;

const PLATFORM_NAMES = 'TikTok, Instagram, YouTube Shorts, Facebook, Snapchat or X/Twitter';

export interface ReferenceUrlOptions {
  /**
   * Domains allowed instead of REFERENCE_HOSTS (tests, or a deployment with a narrower list); `any`:
   * every host name (a file a client links to directly, e.g. demo_video_url), still https, no IP
   * literal, no port, and only public addresses when it is fetched.
   */
  allowedDomains?: readonly string[] | 'any';
}

export type ReferenceUrlVerdict = { ok: true; url: URL } | { ok: false; problem: string };

/** True when `host` is `domain` or a subdomain of it, compared label by label. */
export function hostMatchesDomain(host: string, domain: string): boolean {
  const h = host.toLowerCase();
  const d = domain.toLowerCase().replace(/^\.+/, '');
  if (!d) return false;
  return h === d || h.endsWith(`.${d}`);
}

function isAllowedReferenceHost(host: string, options: ReferenceUrlOptions = {}): boolean {
  if (options.allowedDomains === 'any') return true;
  const domains = options.allowedDomains ?? REFERENCE_HOSTS.map((h) => h.domain);
  return domains.some((domain) => hostMatchesDomain(host, domain));
}

// C0 controls, DEL and whitespace: the URL parser silently drops tabs and newlines inside a URL,
// which would let the string we check differ from the one a reader sees.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/**
 * The verdict on a reference link, as data; `problem` completes a sentence that starts with the
 * link's name ("reference_url ...", "the link redirected to a URL that ...").
 */
export function inspectReferenceUrl(raw: unknown, options: ReferenceUrlOptions = {}): ReferenceUrlVerdict {
  if (typeof raw !== 'string') return { ok: false, problem: 'must be a string' };
  if (raw.length === 0) return { ok: false, problem: 'must not be empty' };
  if (raw.length > REFERENCE_URL_MAX_LENGTH) {
    return { ok: false, problem: `must be at most ${REFERENCE_URL_MAX_LENGTH} characters long (got ${raw.length})` };
  }
  if (CONTROL_OR_SPACE.test(raw)) return { ok: false, problem: 'must not contain spaces or control characters' };

  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'is not a valid URL (expected https://...)' };
  }
  if (url.protocol !== 'https:') {
    return { ok: false, problem: `must use https (got "${url.protocol.replace(/:$/, '')}")` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, problem: 'must not contain a user name or password' };
  }
  // The parser already turns an explicit ":443" into the empty (default) port.
  if (url.port !== '') {
    return { ok: false, problem: `must not name a port (got ${url.port}); only the default https port is allowed` };
  }
  const host = url.hostname;
  // The parser canonicalises every IPv4 spelling (2130706433, 0x7f.1, 127.1) to dotted decimal.
  if (host.startsWith('[') || isIP(host) !== 0) {
    return { ok: false, problem: 'must name a host, not an IP address' };
  }
  if (host === '' || host.endsWith('.')) {
    return { ok: false, problem: `must name a host without a trailing dot (got "${host}")` };
  }
  if (!isAllowedReferenceHost(host, options)) {
    return { ok: false, problem: `must be a link to ${PLATFORM_NAMES}; host "${host}" is not on the allowed list` };
  }
  return { ok: true, url };
}

/**
 * The request-time check (POST /videos, regenerate): returns the parsed URL, or throws a 400 whose
 * message names what is wrong.
 */
export function checkReferenceUrl(raw: unknown, options: ReferenceUrlOptions & { field?: string } = {}): URL {
  const verdict = inspectReferenceUrl(raw, options);
  if (!verdict.ok) throw new AppError('bad_request', `${options.field ?? 'reference_url'} ${verdict.problem}`);
  return verdict.url;
}
