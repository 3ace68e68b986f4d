/**
 * A Bedrock Runtime double over real HTTP/2 on loopback (cleartext h2c: the SDK's runtime client
 * only speaks HTTP/2, as the service does): `POST /model/{modelId}/converse` answering
 * the Converse JSON shape (driven with the SDK's own client in test/contract), refusing a request the
 * service would (no messages, a bad role, a conversation not opened by the user: 400
 * ValidationException), or errors the way the service sends them (status,
 * `x-amzn-ErrorType` header that the SDK reads, `{message}` body). Replies are scripted in order;
 * with none queued it answers like a well-behaved model: exactly the number of hooks the system
 * prompt asks for, about the product named in the user message.
 */
import {
  createServer,
  type Http2Server,
  type Http2ServerRequest as IncomingMessage,
  type Http2ServerResponse as ServerResponse,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { StopReason } from '@aws-sdk/client-bedrock-runtime';
const { floor } = Math;

type BedrockReply =
  /** Good hooks (default count: what the prompt asked for), optionally fenced or with extra items. */
  | { kind: 'hooks'; hooks?: Array<{ text: string; format: string }>; count?: number; fenced?: boolean; stopReason?: StopReason }
  /** Any assistant text. */
  | { kind: 'text'; text: string; stopReason?: StopReason }
  /** A service error, e.g. ThrottlingException 429, AccessDeniedException 403. */
  | { kind: 'error'; type: string; status: number; message?: string }
  /** A raw HTTP answer (e.g. a body that is not JSON). */
  | { kind: 'raw'; status: number; body: string; headers?: Record<string, string> }
  /** Wait, then answer normally (or with `then`). */
  | { kind: 'slow'; delayMs: number; then?: BedrockReply };

interface ConverseRequest {
  modelId: string;
  headers: IncomingMessage['headers'];
  body: {
    system?: Array<{ text: string }>;
    messages?: Array<{ role: string; content: Array<{ text?: string }> }>;
    inferenceConfig?: { maxTokens?: number; temperature?: number };
  };
}

export interface BedrockDouble {
  endpoint: string;
  requests: ConverseRequest[];
  enqueue(...replies: BedrockReply[]): void;
  reset(): void;
  close(): Promise<void>;
}

const FORMATS = ['pov', 'question', 'curiosity_gap', 'challenge', 'confession', 'listicle', 'before_after', 'warning', 'social_proof', 'story'];

export function sampleHooks(product: string, count: number): Array<{ text: string; format: string }> {
  const templates = [
    `POV: you finally tried ${product}`,
    `Why is nobody talking about ${product}?`,
    `I didn't expect ${product} to do this`,
    `Try ${product} for a week. I dare you`,
    `Confession: I was wrong about ${product}`,
    `3 reasons ${product} changed my mornings`,
    `Before ${product} vs after ${product}`,
    `Stop scrolling if you still don't have ${product}`,
    `Everyone at work asked about my ${product}`,
    `The day ${product} saved my launch`,
  ];
  return Array.from({ length: count }, (_, i) => ({
    text: `${templates[i % templates.length]}${i >= templates.length ? ` (take ${floor(i / templates.length) + 1})` : ''}`,
    format: FORMATS[i % FORMATS.length]!,
  }));
}

function converseAnswer(text: string, stopReason: StopReason = 'end_turn'): string {
  return JSON.stringify({
    output: { message: { role: 'assistant', content: [{ text }] } },
    stopReason,
    usage: { inputTokens: 321, outputTokens: 123, totalTokens: 444 },
    metrics: { latencyMs: 42 },
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** What Converse refuses before the model runs (a ValidationException), as the service words it. */
function converseProblem(body: ConverseRequest['body']): string | null {
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'The messages field is required and must not be empty.';
  for (const [i, message] of messages.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') return `messages.${i}.role: must be user or assistant.`;
    if (!Array.isArray(message.content) || message.content.length === 0) return `messages.${i}.content: must not be empty.`;
  }
  if (messages[0]!.role !== 'user') return 'A conversation must start with a user message.';
  return null;
}

export async function startBedrockDouble(): Promise<BedrockDouble> {
  const requests: ConverseRequest[] = [];
  let queue: BedrockReply[] = [];

  function respond(res: ServerResponse, request: ConverseRequest, reply: BedrockReply): Promise<void> | void {
    switch (reply.kind) {
      case 'slow':
        return new Promise<void>((resolve) => setTimeout(resolve, reply.delayMs).unref()).then(() =>
          respond(res, request, reply.then ?? { kind: 'hooks' }),
        );
      case 'error':
        res.writeHead(reply.status, {
          'content-type': 'application/json',
          'x-amzn-errortype': `${reply.type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
          'x-amzn-requestid': 'double-request',
        });
        res.end(JSON.stringify({ message: reply.message ?? `${reply.type} from the double` }));
        return;
      case 'raw':
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body);
        return;
      case 'text':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(converseAnswer(reply.text, reply.stopReason));
        return;
      case 'hooks': {
        const system = request.body.system?.map((s) => s.text).join('\n') ?? '';
        const user = request.body.messages?.[0]?.content.map((c) => c.text ?? '').join('\n') ?? '';
        const asked = Number(/exactly (\d+)/.exec(system)?.[1] ?? 5);
        const product = /Product name: <<<(.*?)>>>/.exec(user)?.[1] ?? 'this product';
        const hooks = reply.hooks ?? sampleHooks(product, reply.count ?? asked);
        const json = JSON.stringify({ hooks });
        const text = reply.fenced ? `Here are your hooks:\n\`\`\`json\n${json}\n\`\`\`\nEnjoy!` : json;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(converseAnswer(text, reply.stopReason));
        return;
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://double');
    const text = await readBody(req);
    const match = /^\/model\/([^/]+)\/converse$/.exec(url.pathname);
    if (req.method !== 'POST' || !match) {
      res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'UnknownOperationException' });
      res.end('{"message":"unknown operation"}');
      return;
    }
    let body: ConverseRequest['body'] = {};
    try {
      body = JSON.parse(text) as ConverseRequest['body'];
    } catch {
      // recorded as empty
    }
    const request: ConverseRequest = { modelId: decodeURIComponent(match[1]!), headers: req.headers, body };
    requests.push(request);
    const invalid = converseProblem(body);
    if (invalid) return respond(res, request, { kind: 'error', type: 'ValidationException', status: 400, message: invalid });
    await respond(res, request, queue.shift() ?? { kind: 'hooks' });
  }

  const sessions = new Set<Http2Session>();
  const server: Http2Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', 'x-amzn-errortype': 'InternalServerException' });
        res.end(JSON.stringify({ message: String(error) }));
      }
    });
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    requests,
    enqueue(...replies) {
      queue.push(...replies);
    },
    reset() {
      queue = [];
      requests.length = 0;
    },
    async close() {
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
