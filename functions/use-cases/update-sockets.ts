/**
 * The socket's side of live updates (domain/live-updates): a ticket issued to a caller the REST API
 * authenticated, taken once to open a socket, then the socket's messages answered. Every client fault
 * is an answer (an `error` message or a refused connection), never a thrown failure.
 */
import { AppError } from '#domain/errors';
import {
  hashUpdateTicket,
  isWellFormedUpdateTicket,
  LIVE_UPDATE_LIMITS,
  newUpdateTicket,
  parseClientMessage,
  resourceName,
  updateError,
  type ServerMessage,
  type UpdateTopic,
} from '#domain/live-updates';
import { isStockAvatarId } from '#domain/stock-avatars';
import type { Ports } from '#ports/ports';
import type { UpdateSocket } from '#ports/update-sockets';
import { presentTopic, type PresentUpdateDeps } from './present-update';

export type UpdateSocketDeps = Pick<Ports, 'updateSockets' | 'now'>;

export interface IssuedTicket {
  ticket: string;
  url: string;
  expires_at: string;
}

/** POST /updates/tickets: a ticket for one connection in `scopeId`, good for a minute. */
export async function issueUpdateTicket(deps: UpdateSocketDeps & Pick<Ports, 'updatesUrl'>, scopeId: number): Promise<IssuedTicket> {
  const ticket = newUpdateTicket();
  const expiresAt = new Date(deps.now().getTime() + LIVE_UPDATE_LIMITS.ticketS * 1000);
  await deps.updateSockets.saveTicket(hashUpdateTicket(ticket), { scopeId, expiresAt });
  return { ticket, url: deps.updatesUrl(), expires_at: expiresAt.toISOString() };
}

const BAD_TICKET = 'Unknown, used or expired ticket: take a new one with POST /api/v1/updates/tickets and connect within a minute';

/** $connect: the ticket in the query opens the socket, once. */
export async function openUpdateSocket(deps: UpdateSocketDeps, connectionId: string, ticket: string | undefined): Promise<UpdateSocket> {
  if (ticket === undefined) throw new AppError('unauthorized', 'Connect with ?ticket=<ticket>: take one with POST /api/v1/updates/tickets');
  if (!isWellFormedUpdateTicket(ticket)) throw new AppError('unauthorized', BAD_TICKET);
  const at = deps.now();
  const scopeId = await deps.updateSockets.takeTicket(hashUpdateTicket(ticket), at);
  if (scopeId === undefined) throw new AppError('unauthorized', BAD_TICKET);
  const socket: UpdateSocket = { connectionId, scopeId, openedAt: at.toISOString() };
  await deps.updateSockets.open(socket);
  return socket;
}

/** $disconnect. */
export async function closeUpdateSocket(deps: UpdateSocketDeps, connectionId: string): Promise<void> {
  await deps.updateSockets.close(connectionId);
}

/** $default: the answer to one message from the client. */
export async function answerUpdateMessage(deps: UpdateSocketDeps & PresentUpdateDeps, connectionId: string, text: string): Promise<ServerMessage> {
  const message = parseClientMessage(text);
  if ('type' in message) return message;
  if (message.action === 'ping') return { type: 'pong' };
  const socket = await deps.updateSockets.find(connectionId);
  if (!socket) return updateError('unauthorized', 'This socket is not open any more: connect again with a new ticket');
  return message.action === 'subscribe' ? subscribe(deps, socket, message.topic) : unsubscribe(deps, socket, message.topic);
}

async function subscribe(deps: UpdateSocketDeps & PresentUpdateDeps, socket: UpdateSocket, topic: UpdateTopic): Promise<ServerMessage> {
  if (topic.resource === 'avatar' && isStockAvatarId(topic.id)) {
    return updateError('bad_request', `Avatar ${topic.id} is a stock avatar: always ready, it never changes (GET /avatars/${topic.id} reads it)`, topic);
  }
  // Read first: an id the scope does not own is never written down.
  const notFound = () => updateError('not_found', `${resourceName[topic.resource]} ${topic.id} not found`, topic);
  if ((await presentTopic(deps, socket.scopeId, topic)) === undefined) return notFound();
  const outcome = await deps.updateSockets.subscribe(socket, topic, LIVE_UPDATE_LIMITS.subscriptions);
  if (outcome === 'full') {
    return updateError('bad_request', `A socket follows at most ${LIVE_UPDATE_LIMITS.subscriptions} records: unsubscribe from one first`, topic);
  }
  // Read again once subscribed: a change between the first read and the subscription is pushed to no
  // one, so the answer must carry it (a client that saw the old state would wait for a push that never comes).
  const data = await presentTopic(deps, socket.scopeId, topic);
  if (data === undefined) return notFound();
  return { type: 'subscribed', ...topic, data };
}

async function unsubscribe(deps: UpdateSocketDeps, socket: UpdateSocket, topic: UpdateTopic): Promise<ServerMessage> {
  await deps.updateSockets.unsubscribe(socket, topic);
  return { type: 'unsubscribed', ...topic };
}
