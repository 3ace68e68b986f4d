/**
 * Following one record over the live-updates WebSocket (docs/live-updates.md) until it settles: a
 * ticket from POST /updates/tickets, the socket opened with it, one subscription, and every `subscribed`
 * and `update` message's record handed on. Anything that goes wrong on the way (no WebSocket in this
 * runtime, the ticket refused, the socket closing, an error message about the subscription) answers
 * `undefined`, and the caller polls instead: the socket is a faster path, never the only one.
 */
import { WaitTimeoutError } from './errors.js';
import type { TypedClient } from './types.js';

/** What the client needs of a WebSocket: the WHATWG interface Node 22, browsers and the `ws` package share. */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export type LiveResource = 'job' | 'product' | 'avatar';

/** A client's way to live updates: its API and the WebSocket to use, or none (then every wait polls). */
export interface LiveUpdates {
  api: TypedClient;
  WebSocket: WebSocketConstructor | undefined;
}

/** The runtime's own WebSocket: Node 22 and browsers have one, Node 20 has none. */
export const globalWebSocket = (): WebSocketConstructor | undefined => (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;

/** API Gateway closes a connection that carried nothing for 10 minutes: ping well within that. */
const PING_EVERY_MS = 4 * 60_000;

export interface FollowOptions<T> {
  resource: LiveResource;
  id: number;
  settled: (value: T) => boolean;
  onValue: (value: T) => void;
  /** When the whole wait must end (WaitTimeoutError), as a time; the last value seen goes with the error. */
  deadline: number;
  what: string;
  signal?: AbortSignal;
}

/** The settled record, or undefined when the socket could not be used (the caller then polls). */
export async function followUntilSettled<T>(live: LiveUpdates, options: FollowOptions<T>): Promise<T | undefined> {
  if (!live.WebSocket) return undefined;
  let ticket: { ticket: string; url: string };
  try {
    const answer = await live.api.POST('/updates/tickets', { signal: options.signal });
    if (!answer.data) return undefined;
    ticket = answer.data.data;
  } catch {
    options.signal?.throwIfAborted();
    return undefined;
  }
  return follow(live.WebSocket, `${ticket.url}?ticket=${encodeURIComponent(ticket.ticket)}`, options);
}

function follow<T>(WebSocket: WebSocketConstructor, url: string, options: FollowOptions<T>): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    let socket: WebSocketLike;
    try {
      socket = new WebSocket(url);
    } catch {
      return resolve(undefined);
    }
    let last: T | undefined;
    let ended = false;
    const end = (outcome: () => void) => {
      if (ended) return;
      ended = true;
      clearInterval(pinger);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      socket.close(1000);
      outcome();
    };
    const onAbort = () => end(() => reject(options.signal!.reason));
    const pinger = setInterval(() => socket.send(JSON.stringify({ action: 'ping' })), PING_EVERY_MS);
    const timer = setTimeout(() => end(() => reject(new WaitTimeoutError(`${options.what} did not settle in time`, last))), Math.max(0, options.deadline - Date.now()));
    options.signal?.addEventListener('abort', onAbort);
    socket.addEventListener('open', () => socket.send(JSON.stringify({ action: 'subscribe', resource: options.resource, id: options.id })));
    socket.addEventListener('error', () => end(() => resolve(undefined)));
    socket.addEventListener('close', () => end(() => resolve(undefined)));
    socket.addEventListener('message', (event) => {
      const message = parseUpdateMessage(event.data);
      if (!message || (message.resource !== undefined && (message.resource !== options.resource || message.id !== options.id))) return;
      // An error about this record (not found, refused): polling gives the caller the API's own answer.
      if (message.type === 'error') return end(() => resolve(undefined));
      if (message.type !== 'subscribed' && message.type !== 'update') return;
      last = message.data as T;
      options.onValue(last);
      if (options.settled(last)) end(() => resolve(last));
    });
  });
}

/** A server message as the socket sends it, fields unchecked: the readers look only at what they need. */
export interface UpdateMessage {
  type?: string;
  resource?: LiveResource;
  id?: number;
  data?: unknown;
}

/** A socket message's text as an object, or undefined for anything else (binary frames, bad JSON). */
export function parseUpdateMessage(data: unknown): UpdateMessage | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? (value as UpdateMessage) : undefined;
  } catch {
    return undefined;
  }
}
