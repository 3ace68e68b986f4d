/**
 * A closed-loop HTTP load generator, run in its own process (bench/api-latency.ts forks it) so that
 * the client's work does not share an event loop with the server it measures.
 *
 * `connections` loops each keep one keep-alive socket busy: send, read the whole answer, send the
 * next. Request i carries key i mod keys.length, so the load is spread evenly over the accounts and
 * none of them meets the per-account rate limit. Every latency is kept (a few thousand numbers), so
 * the percentiles are exact rather than histogram buckets.
 */
import { Agent, request } from 'node:http';

export interface LoadRequest {
  url: string;
  keys: string[];
  requests: number;
  connections: number;
  /** Offset into the key rotation, so a second run does not start on the same account. */
  keyOffset?: number;
}

export interface LoadResult {
  /** Milliseconds, in completion order. */
  latenciesMs: number[];
  /** Response count per status code; `error` for requests that got no response. */
  statuses: Record<string, number>;
  /** The first few non-200 answers, for diagnosis. */
  samples: string[];
  durationMs: number;
  /** CPU seconds the load generator itself used. */
  cpuS: number;
}

export async function generateLoad(spec: LoadRequest): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections, maxFreeSockets: spec.connections });
  const target = new URL(spec.url);
  const latenciesMs: number[] = [];
  const statuses: Record<string, number> = {};
  const samples: string[] = [];
  const offset = spec.keyOffset ?? 0;
  let next = 0;

  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const key = spec.keys[(i + offset) % spec.keys.length]!;
      const started = process.hrtime.bigint();
      const done = (status: string, body: string) => {
        latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status !== '200' && samples.length < 5) samples.push(`${status} ${body.slice(0, 200)}`);
        resolve();
      };
      const req = request(
        target,
        { method: 'GET', agent, headers: { authorization: `Bearer ${key}`, accept: 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(String(res.statusCode), Buffer.concat(chunks).toString('utf8')));
          res.on('error', (error) => done('error', String(error)));
        },
      );
      req.on('error', (error) => done('error', String(error)));
      req.end();
    });

  const loop = async () => {
    while (next < spec.requests) await one(next++);
  };
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  await Promise.all(Array.from({ length: spec.connections }, loop));
  const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return { latenciesMs, statuses, samples, durationMs, cpuS: (cpu.user + cpu.system) / 1e6 };
}

// Forked by bench/api-latency.ts: one LoadRequest in, one LoadResult out, then exit.
if (process.send && process.env.BENCH_LOAD_CLIENT === '1') {
  process.once('message', (spec: LoadRequest) => {
    generateLoad(spec).then(
      (result) => process.send!({ ok: true, result }, () => process.exit(0)),
      (error: unknown) => process.send!({ ok: false, error: String(error) }, () => process.exit(1)),
    );
  });
}
