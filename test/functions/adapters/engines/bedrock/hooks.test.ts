/**
 * The Bedrock Converse hook adapter against a loopback double over real HTTP (the real SDK signs
 * and sends; the double answers like the service).
 */
import { EngineError, type HookEngine, type ProductBrief } from '#ports/engine';
import {
  HOOK_FORMATS,
  bedrockHookEngine,
  createBedrockHookEngine,
  extractJson,
  parseHookIdeas,
} from '#adapters/engines/bedrock/hooks';
import { startBedrockDouble, sampleHooks, type BedrockDouble } from '#test-doubles/bedrock-runtime';

const product: ProductBrief = { id: 7, name: 'GlowMug', description: 'A self-heating mug that keeps coffee at 60 °C for three hours.' };

let double: BedrockDouble;
/** The retry numbers the SDK asked a delay for (0 = the first retry); every delay is 0 ms here. */
let retries: number[];

function engine(overrides: Parameters<typeof createBedrockHookEngine>[0] = {}): HookEngine {
  return createBedrockHookEngine({
    endpoint: double.endpoint,
    region: 'us-east-1',
    requestTimeoutMs: 2_000,
    maxAttempts: 3,
    retryBackoff: {
      computeNextBackoffDelay: (retry) => {
        retries.push(retry);
        return 0;
      },
      setDelayBase: () => undefined,
    },
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected an EngineError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  double = await startBedrockDouble();
});

afterAll(async () => {
  await double.close();
});

beforeEach(() => {
  double.reset();
  retries = [];
});

describe('a good answer', () => {
  it('returns exactly N ideas with allowed formats, each at most 100 characters', async () => {
    const ideas = await engine().hookIdeas(product, { seed: 1, count: 5 });
    expect(ideas).toHaveLength(5);
    for (const idea of ideas) {
      expect(HOOK_FORMATS).toContain(idea.format);
      expect(idea.text.length).toBeLessThanOrEqual(100);
      expect(idea.text).toContain('GlowMug');
    }
    expect(double.requests).toHaveLength(1);
  });

  it('calls Converse on the configured model with a grounded prompt, signed by the SDK', async () => {
    await engine().hookIdeas(product, { seed: 1, count: 4 });
    const [request] = double.requests;
    expect(request!.modelId).toBe('us.amazon.nova-lite-v1:0');
    expect(request!.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    const system = request!.body.system!.map((s) => s.text).join('\n');
    expect(system).toContain('exactly 4 hook ideas');
    expect(system).toContain('{"hooks":[{"text":"...","format":"pov"}]}');
    for (const format of HOOK_FORMATS) expect(system).toContain(`"${format}"`);
    expect(system).toContain('at most 100 characters');
    const user = request!.body.messages![0]!.content[0]!.text!;
    expect(request!.body.messages![0]!.role).toBe('user');
    expect(user).toContain('GlowMug');
    expect(user).toContain('self-heating mug');
    expect(request!.body.inferenceConfig!.maxTokens).toBeGreaterThan(0);
  });

  it('tolerates a code fence and chatter around the JSON', async () => {
    double.enqueue({ kind: 'hooks', fenced: true });
    await expect(engine().hookIdeas(product, { seed: 1, count: 3 })).resolves.toHaveLength(3);
    expect(double.requests).toHaveLength(1);
  });

  it('drops items over 100 characters, duplicates and unknown formats; normalises format spelling', async () => {
    const good = sampleHooks('GlowMug', 3);
    double.enqueue({
      kind: 'hooks',
      hooks: [
        good[0]!,
        { text: 'x'.repeat(101), format: 'pov' },
        { text: good[0]!.text.toUpperCase(), format: 'question' },
        { text: 'GlowMug in a haunted house', format: 'jump_scare' },
        { text: good[1]!.text, format: 'Curiosity Gap' },
        good[2]!,
      ],
    });
    const ideas = await engine().hookIdeas(product, { seed: 1, count: 3 });
    expect(ideas).toEqual([good[0], { text: good[1]!.text, format: 'curiosity_gap' }, good[2]]);
  });

  it('takes model id and endpoint from its environment (BEDROCK_HOOKS_MODEL_ID, BEDROCK_ENDPOINT)', async () => {
    const env = { BEDROCK_ENDPOINT: double.endpoint, BEDROCK_HOOKS_MODEL_ID: 'anthropic.claude-3-haiku-20240307-v1:0' };
    const ideas = await bedrockHookEngine({ env }).hookIdeas(product, { seed: 1, count: 2 });
    expect(ideas).toHaveLength(2);
    expect(double.requests[0]!.modelId).toBe('anthropic.claude-3-haiku-20240307-v1:0');
  });
});

describe('unusable answers: one more request, then provider_error', () => {
  it('malformed JSON, then a good answer', async () => {
    double.enqueue({ kind: 'text', text: '{"hooks": [ {"text": "oops", ' });
    await expect(engine().hookIdeas(product, { seed: 1, count: 3 })).resolves.toHaveLength(3);
    expect(double.requests).toHaveLength(2);
    expect(double.requests[1]!.body.messages![0]!.content[0]!.text).toContain('previous answer was not usable');
  });

  it('malformed twice', async () => {
    double.enqueue({ kind: 'text', text: 'Sure! Here are some hooks: 1. ...' }, { kind: 'text', text: 'no' });
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 3 }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('not JSON');
    expect(double.requests).toHaveLength(2);
  });

  it('too few items, then enough: the second answer completes the list', async () => {
    double.enqueue({ kind: 'hooks', count: 2 });
    const ideas = await engine().hookIdeas(product, { seed: 1, count: 5 });
    expect(ideas).toHaveLength(5);
    expect(new Set(ideas.map((i) => i.text)).size).toBe(5);
    expect(double.requests).toHaveLength(2);
  });

  it('too few items twice', async () => {
    double.enqueue({ kind: 'hooks', count: 2 }, { kind: 'hooks', count: 2 });
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 5 }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('only 2 of 5');
  });

  it('stopReason max_tokens is a truncated answer: retried once with a larger budget', async () => {
    double.enqueue({ kind: 'hooks', stopReason: 'max_tokens' });
    await expect(engine().hookIdeas(product, { seed: 1, count: 3 })).resolves.toHaveLength(3);
    const [first, second] = double.requests;
    expect(second!.body.inferenceConfig!.maxTokens).toBeGreaterThan(first!.body.inferenceConfig!.maxTokens!);
  });

  it('max_tokens twice', async () => {
    double.enqueue({ kind: 'hooks', stopReason: 'max_tokens' }, { kind: 'hooks', stopReason: 'max_tokens' });
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 3 }));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('cut off');
  });

  it('a guardrail intervention is content_rejected, not retried', async () => {
    double.enqueue({ kind: 'text', text: 'Sorry, I cannot help with that.', stopReason: 'guardrail_intervened' });
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 3 }));
    expect(error.code).toBe('content_rejected');
    expect(double.requests).toHaveLength(1);
  });

  it('a body that is not JSON at all is provider_error', async () => {
    double.enqueue({ kind: 'raw', status: 200, body: '<html>gateway</html>' });
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 3 }));
    expect(error.code).toBe('provider_error');
  });
});

describe('service errors', () => {
  it('throttling (429 ThrottlingException) is retried with backoff, then succeeds', async () => {
    double.enqueue({ kind: 'error', type: 'ThrottlingException', status: 429, message: 'Too many requests, please wait before trying again.' });
    await expect(engine().hookIdeas(product, { seed: 1, count: 3 })).resolves.toHaveLength(3);
    expect(double.requests).toHaveLength(2);
    expect(retries).toEqual([0]);
  });

  it('throttling that persists is provider_unavailable and retryable', async () => {
    const throttled = { kind: 'error', type: 'ThrottlingException', status: 429 } as const;
    double.enqueue(throttled, throttled, throttled);
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 3 }));
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: true });
    expect(double.requests).toHaveLength(3);
    // The SDK's backoff grows with the retry number it is given.
    expect(retries).toEqual([0, 1]);
  });

  it('ServiceUnavailableException (503) is provider_unavailable', async () => {
    const down = { kind: 'error', type: 'ServiceUnavailableException', status: 503 } as const;
    double.enqueue(down, down, down);
    await expect(engine().hookIdeas(product, { seed: 1, count: 3 })).rejects.toMatchObject({ code: 'provider_unavailable', retryable: true });
  });

  it('AccessDeniedException (403) is provider_auth, not retried', async () => {
    double.enqueue({ kind: 'error', type: 'AccessDeniedException', status: 403, message: 'You don\'t have access to the model with the specified model ID.' });
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 3 }));
    expect(error).toMatchObject({ code: 'provider_auth', retryable: false });
    expect(error.message).toContain('bedrock:InvokeModel');
    expect(double.requests).toHaveLength(1);
  });

  it('ValidationException (400) is provider_error', async () => {
    double.enqueue({ kind: 'error', type: 'ValidationException', status: 400, message: 'The provided model identifier is invalid.' });
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 3 }));
    expect(error).toMatchObject({ code: 'provider_error', retryable: false });
    expect(error.message).toContain('model identifier is invalid');
  });

  it('ModelTimeoutException (408) is provider_timeout', async () => {
    double.enqueue({ kind: 'error', type: 'ModelTimeoutException', status: 408 });
    await expect(engine().hookIdeas(product, { seed: 1, count: 3 })).rejects.toMatchObject({ code: 'provider_timeout', retryable: true });
  });

  it('a request slower than the per-request timeout is provider_timeout', async () => {
    double.enqueue({ kind: 'slow', delayMs: 1_000 });
    const error = await failure(engine({ requestTimeoutMs: 200 }).hookIdeas(product, { seed: 1, count: 3 }));
    expect(error.code).toBe('provider_timeout');
    // A slow model is not asked again: that would spend the call's deadline waiting.
    expect(double.requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it('an aborted call is cancelled', async () => {
    double.enqueue({ kind: 'slow', delayMs: 1_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await failure(engine().hookIdeas(product, { seed: 1, count: 3, signal: controller.signal }));
    expect(error.code).toBe('cancelled');
  });

  it('an unreachable endpoint is provider_unavailable', async () => {
    const error = await failure(engine({ endpoint: 'http://127.0.0.1:9' }).hookIdeas(product, { seed: 1, count: 3 }));
    expect(error.code).toBe('provider_unavailable');
  });

  it('a count outside 1-20 is invalid_input', async () => {
    await expect(engine().hookIdeas(product, { seed: 1, count: 0 })).rejects.toMatchObject({ code: 'invalid_input' });
    expect(double.requests).toHaveLength(0);
  });
});

describe('parsing helpers', () => {
  it('extractJson reads fenced, bare and embedded JSON', () => {
    expect(extractJson('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(extractJson('{"a":2}')).toEqual({ a: 2 });
    expect(extractJson('Here you go: {"a":3} hope it helps')).toEqual({ a: 3 });
    expect(extractJson('nothing here')).toBeUndefined();
  });

  it('parseHookIdeas accepts a bare array and says why an answer is unusable', () => {
    expect(parseHookIdeas('[{"text":"Hi","format":"story"}]').ideas).toEqual([{ text: 'Hi', format: 'story' }]);
    expect(parseHookIdeas('{"ideas":[]}').problem).toContain('"hooks"');
    // Counted as the API counts hook_text (UTF-16): an emoji takes two of the 100.
    const fits = parseHookIdeas(JSON.stringify({ hooks: [{ text: `😀${'a'.repeat(98)}`, format: 'pov' }] }));
    const over = parseHookIdeas(JSON.stringify({ hooks: [{ text: `😀${'a'.repeat(99)}`, format: 'pov' }] }));
    expect([fits.ideas.length, over.ideas.length]).toEqual([1, 0]);
  });
});
