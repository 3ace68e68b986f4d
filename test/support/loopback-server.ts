/**
 * A loopback HTTP server for adapter tests: it records every request (method, path, query, headers,
 * body parsed as JSON where it is JSON) and answers with whatever the current route says, after an
 * optional delay. `useLoopbackServer` starts one for a test file and clears it before every test.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
const { min } = Math;

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface Reply {
  status?: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** The reply to a request; undefined falls through to the server's notFound reply. */
export type Route = (request: Seen) => Reply | undefined;

export interface LoopbackServer {
  /** http://127.0.0.1:<port>, no trailing slash. */
  readonly url: string;
  readonly seen: Seen[];
  route(next: Route): void;
  /** Forgets the requests seen, the route and any reply still waiting on its delay. */
  reset(): void;
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** What a request no route answers gets (the provider's own 404 shape). */
  notFound?: (request: Seen) => Reply;
}

const defaultNotFound = (request: Seen): Reply => ({ status: 404, body: { message: `no route for ${request.method} ${request.path}` } });

export async function startLoopbackServer(options: LoopbackOptions = {}): Promise<LoopbackServer> {
  const notFound = options.notFound ?? defaultNotFound;
  const seen: Seen[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let route: Route = () => undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://loopback');
      let body: unknown = raw || undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // kept as text
      }
      const request = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body };
      seen.push(request);
      const reply = route(request) ?? notFound(request);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
      }, reply.delayMs ?? 0);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const clearTimers = () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    route(next: Route) {
      route = next;
    },
    reset() {
      seen.length = 0;
      route = () => undefined;
      clearTimers();
    },
    async close() {
      clearTimers();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * One loopback server for the whole test file: started in beforeAll, closed in afterAll and reset
 * before every test (a beforeEach registered here, so it runs before the file's own).
 */
export function useLoopbackServer(options: LoopbackOptions = {}): LoopbackServer {
  let started: LoopbackServer | undefined;
  const current = (): LoopbackServer => {
    if (!started) throw new Error('the loopback server is started in beforeAll');
    return started;
  };
  beforeAll(async () => {
    started = await startLoopbackServer(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(() => current().reset());
  return {
    get url() {
      return current().url;
    },
    get seen() {
      return current().seen;
    },
    route: (next) => current().route(next),
    reset: () => current().reset(),
    close: () => current().close(),
  };
}

/** One reply per "METHOD /path"; several replies are given in turn, the last repeating. */
export function routes(table: Record<string, Reply | Reply[] | ((request: Seen) => Reply)>): Route {
  const counts = new Map<string, number>();
  return (request) => {
    const key = `${request.method} ${request.path}`;
    const entry = table[key];
    if (entry === undefined) return undefined;
    if (typeof entry === 'function') return entry(request);
    if (!Array.isArray(entry)) return entry;
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    return entry[min(n, entry.length - 1)];
  };
}

/** Replies in turn; the last one repeats. */
export function sequence(...replies: Reply[]): Route {
  let n = 0;
  return () => replies[min(n++, replies.length - 1)]!;
}
