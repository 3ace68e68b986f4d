/**
 * Live updates' records (domain/live-updates): tickets, open sockets and what each follows. A ticket is
 * taken once; a socket lists its subscriptions so closing it removes them; a record's subscribers are
 * found by the record alone. Sockets API Gateway forgot to close are removed by the table's TTL, and
 * by the pusher when a post answers that the connection is gone.
 */
import type { UpdateTopic } from '#domain/live-updates';

export interface UpdateSocket {
  /** API Gateway's connection id (the local server makes its own). */
  connectionId: string;
  /** The account, or its test scope, whose records the socket may follow. */
  scopeId: number;
  openedAt: string;
}

export interface UpdateSocketStore {
  /** Refused (throws) when a ticket is saved under `hash` already: tickets are random, so that is a bug. */
  saveTicket(hash: string, ticket: { scopeId: number; expiresAt: Date }): Promise<void>;
  /** The ticket's scope, removing the ticket; undefined for a ticket unknown, taken before, or whose `expiresAt` is before `at`. */
  takeTicket(hash: string, at: Date): Promise<number | undefined>;
  open(socket: UpdateSocket): Promise<void>;
  find(connectionId: string): Promise<UpdateSocket | undefined>;
  /**
   * `full` when the socket follows `limit` records already; following a record twice is one subscription.
   * Also `full` for a socket closed meanwhile, which is not brought back.
   */
  subscribe(socket: UpdateSocket, topic: UpdateTopic, limit: number): Promise<'subscribed' | 'full'>;
  unsubscribe(socket: UpdateSocket, topic: UpdateTopic): Promise<void>;
  /** Removes the socket and its subscriptions; closing an unknown socket changes nothing. */
  close(connectionId: string): Promise<void>;
  /** The connection ids following `topic` in `scopeId`. */
  subscribers(scopeId: number, topic: UpdateTopic): Promise<string[]>;
}

/** Sends a message down an open socket: the API Gateway Management API on AWS, the socket itself locally. */
export interface UpdatePusher {
  /** `gone` when the connection no longer exists (API Gateway's 410): its records should go. */
  post(connectionId: string, message: string): Promise<'sent' | 'gone'>;
}
