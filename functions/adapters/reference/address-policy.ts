/**
 * Which IP addresses a reference download may connect to: public unicast only (no SSRF).
 * The rule is an allow-list of one range, not a deny-list, so a range nobody thought of is refused:
 * an IPv4 address must be `unicast` in ipaddr.js's classification (which sets apart private, loopback,
 * link-local, CGNAT 100.64/10, benchmarking 198.18/15, documentation, reserved 240/4, multicast,
 * broadcast, 0/8...), and an IPv6 address must be `unicast` AND inside 2000::/3, the global unicast
 * block (which shuts out ::/96 IPv4-compatible forms, discard, site-local and whatever ipaddr.js does
 * not name). An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries;
 * the other IPv6 forms that embed an IPv4 address (NAT64 64:ff9b::/96, 6to4, Teredo, IPv4-translated)
 * are refused outright, since the address inside could be anything.
 */
import { isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

/**
 * Cloud instance-metadata and credential endpoints. They all sit in ranges the rule refuses anyway
 * (link-local, unique-local, CGNAT); named here so that a refusal says what it is, and so that they
 * stay refused if the rule is ever loosened.
 */
export const METADATA_ADDRESSES: readonly string[] = Object.freeze([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack instance metadata
  '169.254.170.2', // ECS task credentials
  '169.254.170.23', // EKS pod identity
  'fd00:ec2::254', // AWS instance metadata over IPv6
  'fd00:ec2::23', // EKS pod identity over IPv6
  '100.100.100.200', // Alibaba Cloud metadata
]);

const METADATA = new Set(METADATA_ADDRESSES.map((a) => ipaddr.parse(a).toNormalizedString()));
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export type AddressVerdict =
  | { allowed: true; /** What to connect to (an IPv4-mapped address comes back as plain IPv4). */ address: string; family: 4 | 6 }
  | { allowed: false; address: string; /** The range that refused it, e.g. `private`, `loopback`. */ range: string };

function judgeV4(original: string, v4: ipaddr.IPv4): AddressVerdict {
  if (METADATA.has(v4.toNormalizedString())) return { allowed: false, address: original, range: 'cloud metadata' };
  const range = v4.range();
  return range === 'unicast' ? { allowed: true, address: v4.toString(), family: 4 } : { allowed: false, address: original, range };
}

/** The verdict on one address as DNS returned it; anything that is not a plain IP address is refused. */
export function judgeAddress(address: string): AddressVerdict {
  if (isIP(address) === 0) return { allowed: false, address, range: 'not an IP address' };
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return { allowed: false, address, range: 'not an IP address' };
  }
  if (parsed.kind() === 'ipv4') return judgeV4(address, parsed as ipaddr.IPv4);

  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) {
    const verdict = judgeV4(address, v6.toIPv4Address());
    return verdict.allowed ? verdict : { ...verdict, range: `IPv4-mapped ${verdict.range}` };
  }
  if (v6.zoneId !== undefined) return { allowed: false, address, range: 'scoped (zone) address' };
  if (METADATA.has(v6.toNormalizedString())) return { allowed: false, address, range: 'cloud metadata' };
  const range = v6.range();
  if (range !== 'unicast') return { allowed: false, address, range };
  if (!v6.match(GLOBAL_UNICAST_V6)) return { allowed: false, address, range: 'outside global unicast 2000::/3' };
  return { allowed: true, address: v6.toString(), family: 6 };
}
