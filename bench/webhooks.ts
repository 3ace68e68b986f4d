/**
 * Webhook delivery latency on the local stack: how long after a state change its event reaches a
 * receiver on this machine. Two measures, both through the whole path (the event written with its
 * change, the worker's fan-out, the signed POST):
 *
 * - job `done` → receiver: auto jobs run one after another; the event's `created_at` is the instant
 *   the job was marked done (written in the same transaction), compared with the receiver's clock (the
 *   same machine's).
 * - ping → receiver: `POST /webhooks/{id}/test` answered 202 → the ping received, many times, for a
 *   larger sample of the worker's tick.
 *
 * Every received body is verified with the typed client's verifyWebhook, so a delivery counts only if
 * it is one a real receiver would accept.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { flag, fmt, percentile, type SectionResult, type Target, type SectionOptions } from './report';
import { productWithDemo } from './stack-client';
import { benchAccount, onLocalStack } from './local-stack';

export const WEBHOOK_DEFAULTS = { jobs: 6, pings: 40, demoS: 5 } as const;
export type WebhookBenchOptions = SectionOptions<typeof WEBHOOK_DEFAULTS>;
const WEBHOOK_TARGETS = { p95Ms: 1000 } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Received {
  type: string;
  id: string;
  createdAt: string;
  /** `data.id`: the job a job event is about. */
  subjectId: unknown;
  at: number;
}

async function startReceiver(secret: () => string, verify: (body: string, headers: Record<string, string>, secret: string) => { id: string; type: string; created_at: string; data: unknown }) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const event = verify(Buffer.concat(chunks).toString('utf8'), request.headers as Record<string, string>, secret());
      received.push({ type: event.type, id: event.id, createdAt: event.created_at, subjectId: (event.data as { id?: unknown } | null)?.id, at });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function until<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

export async function runWebhookLatency(options: WebhookBenchOptions): Promise<SectionResult> {
  const { log } = options;
  const { verifyWebhook } = await import('#client/webhooks');

  let secret = '';
  const receiver = await startReceiver(() => secret, verifyWebhook);
  try {
    return await onLocalStack('webhooks', {}, async ({ stack, dir }) => {
      const { call } = await benchAccount(stack, 'bench-webhooks', 'business');
      const made = await call('POST', '/webhooks', { url: receiver.url, events: ['video.job.done'] });
      if (made.status !== 201) throw new Error(`POST /webhooks answered ${made.status}: ${JSON.stringify(made.body)}`);
      secret = made.body.data.secret;
      const endpointId = made.body.data.id as string;
      const { productId } = await productWithDemo(call, () => stack.tasks.idle(), dir, options.demoS);

      const jobLatencies: number[] = [];
      for (let i = 0; i < options.jobs; i++) {
        const posted = await call('POST', '/videos', { product_id: productId, method: 'prompt', prompt: 'shocked by the price' });
        if (posted.status !== 202) throw new Error(`POST /videos answered ${posted.status}: ${JSON.stringify(posted.body)}`);
        const id = posted.body.data.id as number;
        const event = await until(() => receiver.received.find((r) => r.type === 'video.job.done' && r.subjectId === id), 120_000, `job ${id} done`);
        jobLatencies.push(event.at - Date.parse(event.createdAt));
      }
      log(`job done → receiver: ${jobLatencies.map((ms) => `${ms}`).join(', ')} ms`);

      const pingLatencies: number[] = [];
      for (let i = 0; i < options.pings; i++) {
        const sent = await call('POST', `/webhooks/${endpointId}/test`);
        const answeredAt = Date.now();
        const eventId = sent.body.data.event_id as string;
        const ping = await until(() => receiver.received.find((r) => r.id === eventId), 10_000, `ping ${eventId}`);
        pingLatencies.push(ping.at - answeredAt);
      }
      return summarise(jobLatencies, pingLatencies);
    });
  } finally {
    await receiver.close();
  }
}

function summarise(jobs: number[], pings: number[]): SectionResult {
  const sortedJobs = [...jobs].sort((a, b) => a - b);
  const sortedPings = [...pings].sort((a, b) => a - b);
  const targets: Target[] = [{ what: 'job done → receiver, p95', value: percentile(sortedJobs, 95), max: WEBHOOK_TARGETS.p95Ms, unit: 'ms' }];
  const row = (what: string, sorted: number[]) => [what, String(sorted.length), fmt(percentile(sorted, 50), 0), fmt(percentile(sorted, 95), 0), fmt(sorted[sorted.length - 1]!, 0)];
  return {
    tables: [
      { title: 'Delivery latency (ms)', head: ['event', 'n', 'p50', 'p95', 'max'], rows: [row('job done → receiver', sortedJobs), row('ping 202 → receiver', sortedPings)] },
      { title: 'Targets', head: ['figure', 'value', 'target', ''], rows: targets.map((t) => [t.what, `${fmt(t.value, 0)} ${t.unit}`, `≤ ${t.max} ${t.unit}`, flag(t)]) },
    ],
    targets,
    notes: ['The local worker ticks every 250 ms (fan-out, then the due attempts): about half a tick on average, plus the signed POST.'],
    data: { jobLatenciesMs: jobs, pingLatenciesMs: pings },
  };
}
