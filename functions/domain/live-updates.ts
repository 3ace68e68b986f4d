/**
 * Live updates (docs/live-updates.md): jobs, products (their demo) and avatars pushed over a
 * WebSocket as they change. A client takes a short-lived ticket from the REST API (its key or its
 * session proves who it is there, where headers and cookies work), opens the socket with the ticket in
 * the query, and subscribes to records by id. Each update carries the record exactly as its GET
 * answers it, so a subscriber never needs a request after a push.
 *
 * This module is the protocol: the messages a client may send, parsed with a clear error for anything
 * else, and the messages the service sends. The same text travels on API Gateway and the local server.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import type { ErrorCode } from './errors';

const UPDATE_RESOURCES = ['job', 'product', 'avatar'] as const;
export type UpdateResource = (typeof UPDATE_RESOURCES)[number];

/** One record a socket may follow, in the subscriber's scope (its account, or the account's test scope). */
export interface UpdateTopic {
  resource: UpdateResource;
  id: number;
}

/** A record written in a scope: what the pusher is told, by the table's stream on AWS and the write watcher locally. */
export interface ChangedRecord {
  scopeId: number;
  topic: UpdateTopic;
}

export const LIVE_UPDATE_LIMITS = {
  /** A ticket is good for one connection within this long: it travels in a URL, which logs may keep. */
  ticketS: 60,
  /** API Gateway ends every WebSocket connection after 2 hours; the local server does the same. */
  socketMaxS: 2 * 3600,
  /** API Gateway closes a connection that carried no message for 10 minutes; so does the local server. */
  idleS: 10 * 60,
  /** What a client's ping interval should stay under, with room for a late timer. */
  pingEveryS: 5 * 60,
  /** Records one socket follows at once. */
  subscriptions: 50,
  /** API Gateway's frame limit is 32 KB; a client message is a few dozen bytes. */
  clientMessageBytes: 32 * 1024,
} as const;

/** The path the local server answers WebSocket upgrades on; on AWS the ticket's `url` names the WebSocket API's stage. */
export const LOCAL_UPDATES_PATH = '/api/v1/updates';

// ---- tickets ----

const TICKET_PREFIX = 'rsu_';
const TICKET_PATTERN = /^rsu_[A-Za-z0-9_-]{43}$/;

export const newUpdateTicket = () => `${TICKET_PREFIX}${randomBytes(32).toString('base64url')}`;
export const hashUpdateTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');
/** A ticket that cannot be ours is refused without a database read. */
export const isWellFormedUpdateTicket = (candidate: string) => TICKET_PATTERN.test(candidate);

// ---- client → service ----

export type ClientMessage = { action: 'subscribe' | 'unsubscribe'; topic: UpdateTopic } | { action: 'ping' };

const topicSchema = z.object({
  resource: z.enum(UPDATE_RESOURCES),
  id: z.int().check(z.positive(), z.lte(Number.MAX_SAFE_INTEGER)),
});

/** A message the service sends back when a client's message cannot be taken. */
export interface UpdateError {
  type: 'error';
  code: ErrorCode;
  message: string;
  /** The record the refused message named, when it named one the service could read. */
  resource?: UpdateResource;
  id?: number;
}

export const updateError = (code: ErrorCode, message: string, topic?: UpdateTopic): UpdateError => ({ type: 'error', code, message, ...topic });

const ACTIONS = 'send {"action": "subscribe" | "unsubscribe", "resource": "job" | "product" | "avatar", "id": <id>} or {"action": "ping"}';

/** A client's text message, or the error to send back; never throws, whatever the text. */
export function parseClientMessage(text: string): ClientMessage | UpdateError {
  if (Buffer.byteLength(text) > LIVE_UPDATE_LIMITS.clientMessageBytes) return updateError('payload_too_large', `A message is at most ${LIVE_UPDATE_LIMITS.clientMessageBytes} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return updateError('bad_request', `A message is a JSON object: ${ACTIONS}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return updateError('bad_request', `A message is a JSON object: ${ACTIONS}`);
  const action = (raw as { action?: unknown }).action;
  if (action === 'ping') return { action };
  if (action !== 'subscribe' && action !== 'unsubscribe') {
    const named = typeof action === 'string' ? `Unknown action "${action.slice(0, 40)}"` : 'No action';
    return updateError('bad_request', `${named}: ${ACTIONS}`);
  }
  const topic = topicSchema.safeParse(raw);
  if (!topic.success) {
    const field = topic.error.issues[0]?.path[0] === 'id' ? '`id` must be a positive integer' : '`resource` must be "job", "product" or "avatar"';
    return updateError('bad_request', `Cannot ${action}: ${field}`);
  }
  return { action, topic: topic.data };
}

// ---- service → client ----

export type ServerMessage =
  | { type: 'subscribed'; resource: UpdateResource; id: number; data: unknown }
  | { type: 'unsubscribed'; resource: UpdateResource; id: number }
  | { type: 'update'; resource: UpdateResource; id: number; data: unknown }
  | { type: 'pong' }
  | UpdateError;

/** The item-key form of a topic, shared by the stores: `job#000000000007`. */
export const topicKey = (topic: UpdateTopic) => `${topic.resource}#${String(topic.id).padStart(12, '0')}`;

/** How error messages name each resource, as the REST API's 404s do. */
export const resourceName: Record<UpdateResource, string> = { job: 'Job', product: 'Product', avatar: 'Avatar' };
