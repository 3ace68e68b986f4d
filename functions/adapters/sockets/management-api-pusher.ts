/**
 * Posts live updates to API Gateway WebSocket connections: the Management API's
 * POST {stage endpoint}/@connections/{connectionId}, signed with the function's credentials (the
 * role's `execute-api:ManageConnections` on this API's connections, lib/cloud/live-updates.ts).
 * 410 Gone is an answer (the connection closed without $disconnect reaching us); anything else not 2xx
 * is a failure the stream retries.
 */
import type { UpdatePusher } from '#ports/update-sockets';
import { signedHeaders, type AwsCredentials } from './sigv4';

export interface ManagementApiOptions {
  /** `https://{api-id}.execute-api.{region}.amazonaws.com/{stage}` */
  endpoint: string;
  region: string;
  /** Read per post: Lambda rotates the role's credentials, and a warm function keeps running. */
  credentials: () => AwsCredentials;
  now?: () => Date;
  fetch?: typeof fetch;
}

export class ManagementApiPusher implements UpdatePusher {
  constructor(private readonly options: ManagementApiOptions) {}

  async post(connectionId: string, message: string): Promise<'sent' | 'gone'> {
    const { endpoint, region, credentials, now = () => new Date(), fetch: send = fetch } = this.options;
    const url = new URL(`${endpoint.replace(/\/+$/, '')}/@connections/${encodeURIComponent(connectionId)}`);
    const headers = signedHeaders({ method: 'POST', url, body: message, region, service: 'execute-api', credentials: credentials(), at: now() });
    const answer = await send(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: message, signal: AbortSignal.timeout(5000) });
    if (answer.status === 410) return 'gone';
    if (!answer.ok) throw new Error(`posting to connection ${connectionId} failed: ${answer.status} ${(await answer.text()).slice(0, 200)}`);
    return 'sent';
  }
}
