import { HOOK_IDEAS_PER_REQUEST, HOOK_TEXT_MAX } from '#domain/schemas/hooks';
import { EngineError, type HookEngine, type HookIdea } from '#ports/engine';
import { suggestHooks } from '#use-cases/suggest-hooks';
import { MemoryAccountStore } from '#test-doubles/memory/account-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { MemoryRateLimiter } from '#test-doubles/memory/rate-limiter';
import { testDependencies, testEngines } from '#test-support/wiring';
import { createBedrockHookEngine } from '#adapters/engines/bedrock/hooks';
import { startBedrockDouble, type BedrockDouble } from '#test-doubles/bedrock-runtime';

const NOW = new Date('2026-03-01T10:00:00Z');
const idea = (n: number): HookIdea => ({ text: `POV: idea ${n}`, format: 'pov' });

async function setup(hookIdeas: HookEngine['hookIdeas']) {
  const accounts = new MemoryAccountStore();
  const { id: accountId } = await accounts.create('test', 'free', NOW);
  const products = new MemoryProductStore();
  await products.create({ id: 5, account_id: accountId, name: 'Glow Serum', description: 'for dry skin', demo: null, created_at: NOW.toISOString(), updated_at: NOW.toISOString() });
  const engine: HookEngine = { name: 'double', hookIdeas };
  const deps = testDependencies({ accounts, products, rateLimits: new MemoryRateLimiter(() => NOW.getTime()), engines: testEngines({ hooks: async () => engine }), now: () => NOW });
  return { deps, accountId };
}

describe('suggestHooks', () => {
  test("asks the engine about the product and answers the ideas that fit", async () => {
    const hookIdeas = jest.fn(async (_product, options: { count: number }) => [{ text: '', format: 'pov' as const }, ...Array.from({ length: options.count }, (_, i) => idea(i))]);
    const { deps, accountId } = await setup(hookIdeas);
    const answer = await suggestHooks(deps, { accountId, productId: 5 });
    expect(answer).toEqual({ product_id: 5, hooks: Array.from({ length: HOOK_IDEAS_PER_REQUEST }, (_, i) => idea(i)) });
    expect(hookIdeas).toHaveBeenCalledWith({ id: 5, name: 'Glow Serum', description: 'for dry skin' }, { seed: expect.any(Number), count: HOOK_IDEAS_PER_REQUEST });
  });

  test('too few usable ideas is an upstream failure the client may retry', async () => {
    const { deps, accountId } = await setup(async () => [idea(1), { text: 'x'.repeat(HOOK_TEXT_MAX + 1), format: 'pov' }]);
    await expect(suggestHooks(deps, { accountId, productId: 5 })).rejects.toMatchObject({ code: 'upstream_unavailable', headers: { 'retry-after': '5' } });
  });

  test("another account's product, or none, is not found, and spends no budget", async () => {
    const hookIdeas = jest.fn();
    const { deps, accountId } = await setup(hookIdeas);
    await expect(suggestHooks(deps, { accountId, productId: 6 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(suggestHooks(deps, { accountId: accountId + 1, productId: 5 })).rejects.toMatchObject({ code: 'not_found' });
    expect(hookIdeas).not.toHaveBeenCalled();
  });

  test('a busy provider reads as upstream_unavailable with a retry hint', async () => {
    const { deps, accountId } = await setup(async () => Promise.reject(new EngineError('provider_unavailable', 'throttled')));
    await expect(suggestHooks(deps, { accountId, productId: 5 })).rejects.toMatchObject({ code: 'upstream_unavailable', headers: { 'retry-after': '60' } });
  });
});

/**
 * The Bedrock hook engine itself behind suggestHooks, its model a Converse double: what the API's
 * caller sees when the model stops for a reason other than end_turn.
 */
describe('suggestHooks with the Bedrock engine, by the model\'s stop reason', () => {
  let bedrock: BedrockDouble;
  beforeAll(async () => {
    bedrock = await startBedrockDouble();
  });
  afterAll(() => bedrock.close());
  afterEach(() => bedrock.reset());

  const bedrockEngine = () =>
    createBedrockHookEngine({
      endpoint: bedrock.endpoint,
      region: 'us-east-1',
      requestTimeoutMs: 2_000,
      retryBackoff: { computeNextBackoffDelay: () => 0, setDelayBase: () => undefined },
    });

  test('max_tokens once: asked again with a larger budget, and the ideas come', async () => {
    bedrock.enqueue({ kind: 'hooks', stopReason: 'max_tokens' });
    const { deps, accountId } = await setup((product, options) => bedrockEngine().hookIdeas(product, options));
    const answer = await suggestHooks(deps, { accountId, productId: 5 });
    expect(answer.hooks).toHaveLength(HOOK_IDEAS_PER_REQUEST);
    expect(answer.hooks[0]!.text).toContain('Glow Serum');
    expect(bedrock.requests[1]!.body.inferenceConfig!.maxTokens).toBeGreaterThan(bedrock.requests[0]!.body.inferenceConfig!.maxTokens!);
  });

  test('max_tokens twice: 503 upstream_unavailable with a Retry-After, saying the answer was cut off', async () => {
    bedrock.enqueue({ kind: 'hooks', stopReason: 'max_tokens' }, { kind: 'hooks', stopReason: 'max_tokens' });
    const { deps, accountId } = await setup((product, options) => bedrockEngine().hookIdeas(product, options));
    const error = await suggestHooks(deps, { accountId, productId: 5 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_unavailable', status: 503, expose: true, headers: { 'retry-after': '5' } });
    expect((error as Error).message).toContain('cut off (max_tokens)');
  });

  test.each(['guardrail_intervened', 'content_filtered'] as const)('%s: 400 naming the product as what was refused, not retried', async (stopReason) => {
    bedrock.enqueue({ kind: 'text', text: 'Sorry, the model cannot answer this.', stopReason });
    const { deps, accountId } = await setup((product, options) => bedrockEngine().hookIdeas(product, options));
    const error = await suggestHooks(deps, { accountId, productId: 5 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'bad_request', status: 400 });
    expect((error as Error).message).toMatch(/^product was refused by the generation provider: flagged by the model's content filter; rephrase/);
    expect(bedrock.requests).toHaveLength(1);
  });
});
