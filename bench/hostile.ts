/**
 * `npx tsx bench/hostile.ts`: sends the hostile-request table (test/support/hostile-requests.ts) round
 * and round, REQUESTS times (default 10,000), to a local stack on 127.0.0.1, and prints the answers by
 * status, the 5xx count and the bodiless count. Exits 1 when any answer was a 5xx, bodiless or
 * missing, so it can gate a change.
 *
 * With API_URL (http://127.0.0.1:PORT/api/v1) and API_KEY it uses that running stack: start it with a
 * raised RATE_LIMIT_PER_MINUTE, or most answers are 429s. Without them it starts its own stack in a
 * temp folder, with the rate limit raised, and stops it at the end. CONCURRENCY (default 8) requests
 * are in flight at once. It only ever connects to 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTES } from '#functions/routes';
import { hostileRequests, sendAll, tally, type HostileRequest } from '#test-support/hostile-requests';

interface Target {
  port: number;
  key: string;
  stop(): Promise<void>;
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  if (!/^[1-9][0-9]{0,6}$/.test(raw)) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return Number(raw);
}

/** A running stack named by the environment; anything but loopback is refused. */
function givenStack(apiUrl: string, key: string): Target {
  const url = new URL(apiUrl);
  if (!['127.0.0.1', 'localhost'].includes(url.hostname) || url.protocol !== 'http:') {
    throw new Error(`API_URL must be http://127.0.0.1:PORT/api/v1; this script sends hostile requests to loopback only, not to ${url.host}`);
  }
  return { port: Number(url.port || 80), key, stop: async () => {} };
}

async function ownStack(log: (line: string) => void): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rs-hostile-'));
  const { startLocalStack } = await import('#local/runtime');
  const { ALL_SCOPES } = await import('#domain/api-keys');
  const stack = await startLocalStack({ dataDir, port: 0, rateLimitPerMinute: 1_000_000 });
  const stop = async () => {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void stop().finally(() => process.exit(130)));
  const account = await stack.dependencies.accounts.create('hostile', 'pro');
  const { key } = await stack.dependencies.apiKeys.create(account.id, ALL_SCOPES);
  log(`local stack at ${stack.apiUrl}`);
  return { port: Number(new URL(stack.baseUrl).port), key, stop };
}

async function main(): Promise<number> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const total = positiveInt('REQUESTS', 10_000);
  const concurrency = positiveInt('CONCURRENCY', 8);
  const { API_URL: apiUrl, API_KEY: apiKey } = process.env;
  if (Boolean(apiUrl) !== Boolean(apiKey)) throw new Error('give both API_URL and API_KEY, or neither (to start a stack)');
  const target = apiUrl && apiKey ? givenStack(apiUrl, apiKey) : await ownStack(log);
  try {
    const table = hostileRequests(ROUTES, target.key);
    const requests: HostileRequest[] = Array.from({ length: total }, (_, i) => table[i % table.length]!);
    log(`${requests.length} requests (a table of ${table.length}, ${concurrency} at a time) to 127.0.0.1:${target.port}`);
    const started = Date.now();
    const results = await sendAll(target.port, requests, concurrency);
    const seconds = (Date.now() - started) / 1000;
    const summary = tally(results);
    log(`done in ${seconds.toFixed(1)} s (${Math.round(requests.length / seconds)} requests/s)`);
    log('by status:');
    for (const [status, count] of Object.entries(summary.byStatus).sort()) log(`  ${status.padEnd(9)} ${count}`);
    log(`5xx: ${summary.serverErrors}`);
    log(`bodiless (no answer, or an empty body): ${summary.bodiless}`);
    log(`a body that is not {error, code}: ${summary.notEnvelope}`);
    for (const sample of summary.samples) log(`  ${sample}`);
    const missing = (summary.byStatus.timeout ?? 0) + (summary.byStatus['no answer'] ?? 0);
    return summary.serverErrors + summary.bodiless + missing > 0 ? 1 : 0;
  } finally {
    await target.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
