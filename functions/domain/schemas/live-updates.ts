/** POST /updates/tickets's answer (domain/live-updates, docs/live-updates.md). */
import * as z from 'zod/mini';
import { meaning, timestamp } from './envelope';

export const updateTicketResponse = z
  .object({
    ticket: meaning(z.string(), 'Good for one connection within a minute: open `url` with `?ticket=<ticket>`'),
    url: meaning(z.string(), 'The WebSocket address to connect to (`wss://` on AWS, `ws://` on the local stack)'),
    expires_at: meaning(timestamp, 'Connect before this; a used or late ticket is refused (the handshake answers 401)'),
  })
  .register(z.globalRegistry, { id: 'UpdateTicket', description: 'A ticket to open a live-updates WebSocket with (docs/live-updates.md)' });
