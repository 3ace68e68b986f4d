/**
 * A few routes of the API as a real HTTP server on loopback, answering as the API does (the
 * `{data}` envelope, JSON, 201/202), enough for the README's example: a product whose demo is
 * ready at once, a job that is done one poll after its first, its video. Outside /api/v1 it answers the
 * studio's HTML page, as the local stack does. It records what each request carried.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface SeenRequest {
  method: string;
  path: string;
  authorization?: string;
  idempotencyKey?: string;
  contentType?: string;
}

export interface FakeApi {
  origin: string;
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const product = { id: 1, name: 'Glow Serum', description: null, demo_video: { status: 'ready', duration_s: 8 } };
const job = (stage: string, progress: number, status: string, videoId: number | null) => ({
  id: 7,
  status,
  stage,
  progress,
  queue_position: null,
  method: 'prompt',
  product_id: 1,
  video_id: videoId,
  error: null,
});

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req-${status}` }).end(JSON.stringify(body));
}

export async function startFakeApi(): Promise<FakeApi> {
  const requests: SeenRequest[] = [];
  let polls = 0;
  let origin = '';
  const routes: Record<string, (response: ServerResponse) => void> = {
    'POST /api/v1/products': (response) => answer(response, 201, { data: product }),
    'GET /api/v1/products/1': (response) => answer(response, 200, { data: product }),
    'POST /api/v1/videos': (response) => {
      polls = 0;
      answer(response, 202, { data: job('queued', 0, 'queued', null) });
    },
    'GET /api/v1/videos/jobs/7': (response) =>
      answer(response, 200, { data: ++polls === 1 ? job('generating_reaction', 40, 'processing', null) : job('done', 100, 'done', 9) }),
    'GET /api/v1/videos/9': (response) => answer(response, 200, { data: { id: 9, job_id: 7, url: `${origin}/media/9.mp4`, duration_s: 12 } }),
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    requests.push({
      method: request.method ?? '',
      path,
      authorization: request.headers.authorization,
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      contentType: request.headers['content-type'],
    });
    request.resume();
    request.on('end', () => {
      const route = routes[`${request.method} ${path}`];
      if (route) return route(response);
      if (!path.startsWith('/api/v1/')) return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Reaction Studio</title>');
      answer(response, 404, { error: `no route ${request.method} ${path}`, code: 'not_found' });
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    requests,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
