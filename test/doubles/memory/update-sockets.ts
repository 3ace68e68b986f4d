/** Live updates' records in memory, as functions/adapters/dynamodb/update-sockets.ts keeps them in the table. */
import { topicKey, type UpdateTopic } from '#domain/live-updates';
import type { UpdateSocket, UpdateSocketStore } from '#ports/update-sockets';

export class MemoryUpdateSocketStore implements UpdateSocketStore {
  readonly tickets = new Map<string, { scopeId: number; expiresAt: Date }>();
  readonly sockets = new Map<string, UpdateSocket & { topics: Set<string> }>();

  async saveTicket(hash: string, ticket: { scopeId: number; expiresAt: Date }) {
    // The table writes a ticket only where its key is free.
    if (this.tickets.has(hash)) throw new Error(`ticket ${hash} is already saved`);
    this.tickets.set(hash, { ...ticket });
  }
  async takeTicket(hash: string, at: Date) {
    const ticket = this.tickets.get(hash);
    this.tickets.delete(hash);
    return ticket && ticket.expiresAt >= at ? ticket.scopeId : undefined;
  }
  async open(socket: UpdateSocket) {
    this.sockets.set(socket.connectionId, { ...socket, topics: new Set() });
  }
  async find(connectionId: string) {
    const socket = this.sockets.get(connectionId);
    return socket && { connectionId, scopeId: socket.scopeId, openedAt: socket.openedAt };
  }
  async subscribe(socket: UpdateSocket, topic: UpdateTopic, limit: number) {
    // A socket closed meanwhile is refused, as the table's condition refuses it, and not brought back.
    const topics = this.sockets.get(socket.connectionId)?.topics;
    if (!topics || (!topics.has(topicKey(topic)) && topics.size >= limit)) return 'full' as const;
    topics.add(topicKey(topic));
    return 'subscribed' as const;
  }
  async unsubscribe(socket: UpdateSocket, topic: UpdateTopic) {
    this.sockets.get(socket.connectionId)?.topics.delete(topicKey(topic));
  }
  async close(connectionId: string) {
    this.sockets.delete(connectionId);
  }
  async subscribers(scopeId: number, topic: UpdateTopic) {
    return [...this.sockets.values()].filter((s) => s.scopeId === scopeId && s.topics.has(topicKey(topic))).map((s) => s.connectionId);
  }
}
