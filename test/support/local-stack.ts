/**
 * End-to-end harness: one local stack per test file (the HTTP server on a free port, its own table and
 * bucket in the run's shared DynamoDB Local and s3rver, files in a temp folder), plus a small client
 * for the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '#local/runtime';
import { ALL_SCOPES } from '#domain/api-keys';
import type { PlanName } from '#domain/plans';
import type { Scope } from '#functions/routes';
import { SwitchableJobRunner, SwitchableSocialProviders } from './wiring';
import type { Ports } from '#ports/ports';
import type { Engines } from '#ports/engines';
import { CanonicalClipEngine } from '#test-doubles/canonical-clip-engine';
import { memoisedComposer, memoisedDemoMedia } from '#test-doubles/memoised-media';
import { BlobSoundBank } from '#adapters/sounds/blob-sound-bank';
import { GeneratedSoundBank } from '#test-doubles/sound-bank';
import { TEST_SOUND_CACHE } from './sound-fixtures';
import { TEST_SAMPLE_CACHE } from './sample-fixtures';
import { BlobSampleDemo } from '#adapters/samples/blob-sample-demo';
import { renderSampleDemo } from '#render';
import { assertMatchesOpenApi } from './openapi-validator';
import { deleteTable, servicesFor } from './services';

export interface TestStack {
  stack: LocalStack;
  /** The runner behind POST /videos, approve and regenerate; a test may switch it (and switches it back). */
  runner: SwitchableJobRunner;
  /** The scheduling providers the API calls; a test may swap one for a double (and switches it back). */
  social: SwitchableSocialProviders;
  dataDir: string;
  /** A fresh account with one key of the given scopes. */
  newAccount(options?: { plan?: PlanName; scopes?: Scope[] }): Promise<{ accountId: number; key: string; api: ApiClient }>;
  /** A fresh account with a product without demo (enough for jobs that are only written). */
  newCustomer(plan?: PlanName): Promise<{ accountId: number; key: string; api: ApiClient; productId: number }>;
  /** Jobs are written and hold their unit, but no execution runs them (until `runner.reset()`). */
  holdJobs(): void;
  stop(): Promise<void>;
}

export interface TestStackOptions {
  dataDir?: string;
  /** Replaces ports of the stack's dependencies (an engine double, a resolver that reaches a loopback server). */
  adjustDependencies?: (built: Ports) => Ports;
  /** Requests per minute per account, for suites that send more than the contract's 120. */
  rateLimitPerMinute?: number;
  /**
   * Start the social sandboxes, and how (`env: {}`: this process's PROVIDER_A/B_BASE_URL are not read);
   * without it none start.
   */
  sandboxes?: Exclude<LocalStackOptions['sandboxes'], false>;
  /**
   * `real`: reactions are drawn and encoded by the configured engine, for suites about rendering.
   * By default every reaction is the run's canonical clip (test/doubles/canonical-clip-engine.ts).
   */
  renders?: 'real' | 'canonical';
  /**
   * `own`: the stack starts its own DynamoDB Local and s3rver with their data under the data dir, as
   * `npm start` does, for suites about that data dir (what another process wrote there). By default
   * it has a table and bucket in the run's shared ones.
   */
  services?: 'own' | 'shared';
  /** What paid plans go through (default `local`: at once, nothing charged); `stripe-sandbox` starts the Stripe sandbox with the stack. */
  billing?: LocalStackOptions['billing'];
}

export async function startTestStack(options: TestStackOptions = {}): Promise<TestStack> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'rs-test-'));
  let runner: SwitchableJobRunner | undefined;
  let social: SwitchableSocialProviders | undefined;
  const services = options.services === 'own' ? undefined : servicesFor(dataDir);
  const stack = await startLocalStack({
    dataDir,
    port: 0,
    services,
    rateLimitPerMinute: options.rateLimitPerMinute,
    sandboxes: options.sandboxes ?? false,
    billing: options.billing,
    // Outage tests make every provider call spend its retries; the policy itself is the adapters' unit tests'.
    socialBackoff: { baseDelayMs: 10, maxDelayMs: 40 },
    adjustDependencies: (wired) => {
      // Real renders get the real built-in sounds, rendered once per machine (they depend on code only);
      // the rest a tone per sound, as they get the canonical clip instead of the engine, and the
      // demo normaliser and caption encoder memoised (one encode per distinct input in a run).
      // The sample product's clip is real in every stack, made once per machine and code (sample-fixtures.ts).
      const sampled = { ...wired, sampleDemo: new BlobSampleDemo(wired.blobs, { render: renderSampleDemo, cacheDir: TEST_SAMPLE_CACHE }) };
      const built =
        options.renders === 'real'
          ? { ...sampled, sounds: new BlobSoundBank(wired.blobs, { cacheDir: TEST_SOUND_CACHE }) }
          : withEngineDouble(
              { ...sampled, sounds: new GeneratedSoundBank(wired.blobs), demoMedia: memoisedDemoMedia(wired.demoMedia), composer: memoisedComposer(wired.composer) },
              new CanonicalClipEngine(wired.blobs),
            );
      const adjusted = options.adjustDependencies ? options.adjustDependencies(built) : built;
      social = new SwitchableSocialProviders(adjusted.social);
      return { ...adjusted, jobRunner: (runner = new SwitchableJobRunner(adjusted.jobRunner)), social: social.providers };
    },
  });
  const newAccount: TestStack['newAccount'] = async ({ plan = 'pro', scopes = [...ALL_SCOPES] } = {}) => {
    const account = await stack.dependencies.accounts.create(`test-${Date.now()}`, plan);
    const key = await stack.dependencies.apiKeys.create(account.id, scopes);
    return { accountId: account.id, key: key.key, api: apiClient(stack.apiUrl, key.key) };
  };
  return {
    stack,
    runner: runner!,
    social: social!,
    dataDir,
    newAccount,
    async newCustomer(plan = 'pro') {
      const account = await newAccount({ plan });
      const product = await account.api.post('/products', { name: 'Glow serum' });
      if (product.status !== 201) throw new Error(`POST /products answered ${product.status}: ${JSON.stringify(product.body)}`);
      return { ...account, productId: product.body.data.id as number };
    },
    holdJobs() {
      runner!.use({ start: async () => undefined, sendDecision: async () => undefined });
    },
    async stop() {
      await stack.stop();
      // A data dir the test named may be started again; a temp one is gone with its table.
      if (options.dataDir) return;
      rmSync(dataDir, { recursive: true, force: true });
      if (services) await deleteTable(services.dynamoEndpoint, services.tableName);
    },
  };
}

function withEngineDouble(built: Ports, reaction: CanonicalClipEngine): Ports {
  const engines = Object.defineProperties({}, Object.getOwnPropertyDescriptors(built.engines)) as Engines;
  return { ...built, engines: Object.assign(engines, { reaction: async () => reaction }) };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export type ApiClient = ReturnType<typeof apiClient>;

export function apiClient(apiUrl: string, key?: string) {
  async function call(method: string, path: string, init: { json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...init.headers };
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const url = new URL(`${apiUrl}${path}`);
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: leave the text for the assertion to show.
    }
    // Every answer a test sees must be one the API description promises.
    assertMatchesOpenApi({ method, pathname: url.pathname, status: response.status, headers: response.headers, body: parsed });
    return { status: response.status, headers: response.headers, body: parsed as any } satisfies ApiResponse;
  }
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, { headers }),
    delete: (path: string) => call('DELETE', path),
    post: (path: string, json?: unknown) => call('POST', path, { json }),
    patch: (path: string, json?: unknown) => call('PATCH', path, { json }),
    put: (path: string, json?: unknown) => call('PUT', path, { json }),
    send: call,
  };
}

/** The contract's error envelope, exactly. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(typeof response.body.error).toBe('string');
  expect(response.headers.get('x-request-id')).toBeTruthy();
}
