/**
 * The studio's one live-updates socket (docs/live-updates.md), shared by every page that follows a
 * record: opened with a ticket when the first record is followed, closed when the last is let go,
 * opened again after a drop (a new ticket each time, waiting longer after each failure). A page asks
 * `isLive` whether its record's updates arrive here; while they do not, it polls as before.
 */
import { parseUpdateMessage, type WebSocketConstructor, type WebSocketLike } from '#client/live-updates';

export type LiveResource = 'job' | 'product' | 'avatar';
type Listener = (data: unknown) => void;

export interface LiveUpdatesDeps {
  /** POST /updates/tickets, as the page's session. */
  ticket: () => Promise<{ ticket: string; url: string }>;
  /** None (an old browser): every page polls. */
  WebSocket: WebSocketConstructor | undefined;
}

/** API Gateway closes a socket silent for 10 minutes. */
const PING_EVERY_MS = 4 * 60_000;
/** Waits before opening again after a drop: longer after each, reset once a socket opens. */
const RETRY_MS = [1_000, 5_000, 15_000, 60_000] as const;

const keyOf = (resource: LiveResource, id: number) => `${resource}#${id}`;

export class LiveUpdates {
  private socket: WebSocketLike | undefined;
  private open = false;
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pinger: ReturnType<typeof setInterval> | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly confirmed = new Set<string>();
  private readonly watchers = new Set<() => void>();
  private changes = 0;

  constructor(private readonly deps: LiveUpdatesDeps) {}

  /** Whether this record's updates come over the socket now: subscribed, on an open socket. */
  isLive(resource: LiveResource, id: number): boolean {
    return this.open && this.confirmed.has(keyOf(resource, id));
  }

  /** For useSyncExternalStore: a number that changes whenever some record's `isLive` may have. */
  readonly snapshot = (): number => this.changes;
  readonly subscribe = (watcher: () => void): (() => void) => {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  };

  /** Calls `listener` with the record as its GET answers it, now and on every change; answers the way to stop. */
  follow(resource: LiveResource, id: number, listener: Listener): () => void {
    const key = keyOf(resource, id);
    const set = this.listeners.get(key) ?? new Set();
    const first = set.size === 0;
    set.add(listener);
    this.listeners.set(key, set);
    if (first && this.open) this.send({ action: 'subscribe', resource, id });
    void this.connect();
    return () => {
      set.delete(listener);
      if (set.size > 0) return;
      this.listeners.delete(key);
      if (this.confirmed.delete(key)) this.changed();
      if (this.open) this.send({ action: 'unsubscribe', resource, id });
      if (this.listeners.size === 0) this.disconnect();
    };
  }

  private async connect(): Promise<void> {
    if (this.socket || this.retryTimer || !this.deps.WebSocket || this.listeners.size === 0) return;
    const WebSocket = this.deps.WebSocket;
    let socket: WebSocketLike;
    try {
      // Claimed before the ticket arrives, so two pages following at once open one socket.
      this.socket = placeholder;
      const { ticket, url } = await this.deps.ticket();
      if (this.socket !== placeholder) return;
      socket = new WebSocket(`${url}?ticket=${encodeURIComponent(ticket)}`);
    } catch {
      this.socket = undefined;
      return this.dropped();
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.open = true;
      this.failures = 0;
      this.pinger = setInterval(() => this.send({ action: 'ping' }), PING_EVERY_MS);
      for (const key of this.listeners.keys()) this.send(subscription(key));
    });
    socket.addEventListener('message', (event) => this.received(event.data));
    const down = () => this.socket === socket && this.dropped();
    socket.addEventListener('close', down);
    socket.addEventListener('error', down);
  }

  private received(data: unknown): void {
    const message = parseUpdateMessage(data);
    if (!message?.resource || message.id === undefined) return;
    const key = keyOf(message.resource, message.id);
    if (message.type === 'error') {
      // Not followed after all (not found, say): the page keeps polling, which says why.
      if (this.confirmed.delete(key)) this.changed();
      return;
    }
    if (message.type !== 'subscribed' && message.type !== 'update') return;
    if (message.type === 'subscribed' && !this.confirmed.has(key)) {
      this.confirmed.add(key);
      this.changed();
    }
    for (const listener of this.listeners.get(key) ?? []) listener(message.data);
  }

  private dropped(): void {
    this.reset();
    if (this.listeners.size === 0) return;
    const wait = RETRY_MS[Math.min(this.failures, RETRY_MS.length - 1)]!;
    this.failures += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, wait);
  }

  private disconnect(): void {
    const socket = this.socket;
    this.reset();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (socket && socket !== placeholder) socket.close(1000);
  }

  private reset(): void {
    clearInterval(this.pinger);
    this.socket = undefined;
    const wasLive = this.open && this.confirmed.size > 0;
    this.open = false;
    this.confirmed.clear();
    if (wasLive) this.changed();
  }

  private send(message: object): void {
    if (this.open && this.socket) this.socket.send(JSON.stringify(message));
  }

  private changed(): void {
    this.changes += 1;
    for (const watcher of this.watchers) watcher();
  }
}

/** Holds the socket's place while its ticket is being fetched. */
const placeholder: WebSocketLike = { send: () => undefined, close: () => undefined, addEventListener: () => undefined };

function subscription(key: string) {
  const [resource, id] = key.split('#');
  return { action: 'subscribe', resource, id: Number(id) };
}
