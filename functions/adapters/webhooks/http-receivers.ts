/**
 * Sends webhook attempts over node:http(s) and owns name resolution, as the reference downloader
 * does: the host is resolved once per attempt, every address must pass the address policy, and the
 * connection is pinned to those vetted addresses, so a second DNS answer (rebinding) cannot slip in.
 * Redirects are answers, never followed. Loopback receivers are allowed only where the runtime says
 * (the local stack, whose receivers run on this machine).
 */
import type { LookupAddress } from 'node:dns';
import { promises as dnsPromises } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import * as ipaddr from 'ipaddr.js';
import { webhookUrlProblem, type AttemptResult, type ReceiverPolicy } from '#domain/webhooks';
import type { WebhookReceivers, WebhookRequest } from '#ports/webhook-receivers';
import { judgeAddress } from '../reference/address-policy';

export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

const defaultLookup: HostLookup = (hostname) => dnsPromises.lookup(hostname, { all: true, verbatim: true });
const USER_AGENT = 'ReactionStudio-Webhooks/1.0';

export class HttpWebhookReceivers implements WebhookReceivers {
  constructor(
    private readonly policy: ReceiverPolicy,
    private readonly lookup: HostLookup = defaultLookup,
    /** Milliseconds on a monotonic clock, for the attempt's latency. */
    private readonly clock: () => number = () => performance.now(),
  ) {}

  async vet(url: string): Promise<string | undefined> {
    const problem = webhookUrlProblem(url, this.policy);
    if (problem) return `url ${problem}`;
    const resolved = await this.resolve(new URL(url).hostname);
    return 'refused' in resolved ? resolved.refused : undefined;
  }

  async send(request: WebhookRequest, timeoutMs: number): Promise<AttemptResult> {
    const started = this.clock();
    const latency = () => Math.round(this.clock() - started);
    const problem = webhookUrlProblem(request.url, this.policy);
    if (problem) return { kind: 'refused', message: `The url ${problem}`, latencyMs: 0 };
    const url = new URL(request.url);
    const resolved = await this.resolve(url.hostname);
    if ('refused' in resolved) return { kind: 'refused', message: resolved.refused, latencyMs: latency() };
    const pinned: LookupFunction = (_host, options, callback) => {
      const all = resolved.addresses;
      if ((options as { all?: boolean }).all) (callback as (e: null, a: LookupAddress[]) => void)(null, all);
      else callback(null, all[0]!.address, all[0]!.family);
    };
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<AttemptResult>((resolvePromise) => {
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolvePromise(result);
      };
      const outgoing = transport.request(
        url,
        {
          method: 'POST',
          lookup: pinned,
          // A fresh connection each attempt: a pooled socket would skip the address check just made.
          agent: false,
          headers: { ...request.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(request.body), 'user-agent': USER_AGENT },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          // The body is not needed, and a receiver could stream one forever: the connection is dropped.
          response.on('error', () => undefined);
          response.destroy();
          finish({ kind: 'answered', status, latencyMs: latency() });
        },
      );
      const timer = setTimeout(() => {
        outgoing.destroy();
        finish({ kind: 'unreachable', message: `No answer within ${timeoutMs / 1000} s`, latencyMs: latency() });
      }, timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'unreachable', message: connectionError(error), latencyMs: latency() }));
      outgoing.end(request.body);
    });
  }

  /** The host's addresses if every one is allowed, or why not. */
  private async resolve(hostname: string): Promise<{ addresses: LookupAddress[] } | { refused: string }> {
    const host = hostname.replace(/^\[|\]$/g, '');
    let addresses: LookupAddress[];
    try {
      addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await this.lookup(host);
    } catch {
      return { refused: `The host ${hostname} does not resolve` };
    }
    if (addresses.length === 0) return { refused: `The host ${hostname} does not resolve` };
    for (const { address } of addresses) {
      if (this.policy.allowLoopback && isLoopbackAddress(address)) continue;
      const verdict = judgeAddress(address);
      if (!verdict.allowed) return { refused: `The host ${hostname} resolves to ${verdict.address} (${verdict.range}): events go to public addresses only` };
    }
    return { addresses };
  }
}

function isLoopbackAddress(address: string): boolean {
  try {
    const parsed = ipaddr.process(address);
    return parsed.range() === 'loopback';
  } catch {
    return false;
  }
}

function connectionError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED') return 'Connection refused';
  if (error.code === 'ECONNRESET') return 'Connection reset';
  if (error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT')) return `TLS failed (${error.code})`;
  return `Could not connect (${error.code ?? error.message})`;
}
