/**
 * GET /local/outbox on the local server: the mails the local stack "sent" (adapters/mail/local-outbox),
 * newest first, for the studio's "Outbox (local)" page. It is no route of the API (on AWS mail goes out
 * through SES and nothing lists it), and it hands out live reset links, so it answers only a client on
 * this machine that addresses the server by a loopback name: a web page that rebinds its own host name
 * to 127.0.0.1 sends its own name as Host and is refused.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

export const OUTBOX_PATH = '/local/outbox';

const LOOPBACK_HOST = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])(:\d+)?$/i;

function isLoopbackAddress(address: string | undefined): boolean {
  if (!address || !isIP(address)) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/** Whether this request may read the outbox: from this machine, to a loopback name. */
export const mayReadOutbox = (request: IncomingMessage) =>
  isLoopbackAddress(request.socket.remoteAddress) && LOOPBACK_HOST.test(request.headers.host ?? '');
