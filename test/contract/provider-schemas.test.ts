/**
 * Contract: our doubles' answers against the providers' published schemas (test/fixtures/providers,
 * sources and dates in its README), not against our reading of them. Each answer is taken off the
 * wire as the production adapters get it and must conform: a field the provider marks required,
 * its type and nullability, its enum.
 */
import { connect } from 'node:http2';
import { startProviderBSandbox, type ProviderBSandbox } from '#local/sandboxes/index';
import { shapeProblems } from '#test-support/provider-schemas';
import { startFalDouble, type FalDouble } from '#test-doubles/fal-queue';
import { FAL_MODELS } from '#test-doubles/fal-models';
import falSchema from '../fixtures/providers/fal.schema.json';
import { startBedrockDouble, type BedrockDouble } from '#test-doubles/bedrock-runtime';
import { startLoopbackServer } from '#test-support/loopback-server';
import { FalWebhooks } from '#adapters/engines/fal/webhook';

describe('Post for Me (provider_b sandbox) against the Post for Me OpenAPI document', () => {
  const KEY = 'sandbox_b_schemas';
  const VIDEO = 'https://cdn.example.com/videos/reaction.mp4';
  let sandbox: ProviderBSandbox;

  beforeAll(async () => {
    sandbox = await startProviderBSandbox({ publishDelayMs: 60_000 });
  });
  afterAll(() => sandbox.stop());

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  }

  const accountId = (platform: string) => sandbox.control.accounts(KEY).find((a) => a.platform === platform)!.id;

  test('social accounts: the list and one account', async () => {
    const list = await call('GET', '/v1/social-accounts?limit=2&offset=0');
    expect(shapeProblems('post-for-me', 'SocialAccountList', list.json)).toEqual([]);
    expect(shapeProblems('post-for-me', 'SocialAccount', (await call('GET', `/v1/social-accounts/${accountId('tiktok')}`)).json)).toEqual([]);
  });

  test('social posts: created now, draft and scheduled; got, listed, deleted', async () => {
    const now = await call('POST', '/v1/social-posts', { caption: 'Now', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }], external_id: 'schema-1' });
    const draft = await call('POST', '/v1/social-posts', { caption: 'Draft', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }], isDraft: true });
    const later = new Date(sandbox.control.now().getTime() + 3_600_000).toISOString();
    const scheduled = await call('POST', '/v1/social-posts', { caption: 'Later', social_accounts: [accountId('youtube')], media: [{ url: VIDEO }], scheduled_at: later });
    for (const created of [now, draft, scheduled]) {
      expect(created.status).toBe(201); // NestJS's default for a POST, as the server sends it (its document says 200)
      expect(shapeProblems('post-for-me', 'SocialPost', created.json)).toEqual([]);
    }
    expect(shapeProblems('post-for-me', 'SocialPost', (await call('GET', `/v1/social-posts/${now.json.id}`)).json)).toEqual([]);
    expect(shapeProblems('post-for-me', 'SocialPostList', (await call('GET', '/v1/social-posts?external_id=schema-1')).json)).toEqual([]);
    expect(shapeProblems('post-for-me', 'SocialPostDeleteResponse', (await call('DELETE', `/v1/social-posts/${draft.json.id}`)).json)).toEqual([]);
  });

  test('post results, successful and failed, and the account feed with metrics', async () => {
    sandbox.control.failPlatform('facebook');
    const post = await call('POST', '/v1/social-posts', { caption: 'Results', social_accounts: [accountId('instagram'), accountId('facebook')], media: [{ url: VIDEO }] });
    sandbox.control.advance(60_000 + 3_600_000);
    sandbox.control.restorePlatform();
    const results = await call('GET', `/v1/social-post-results?post_id=${post.json.id}`);
    expect(results.json.data.map((r: { success: boolean }) => r.success).sort()).toEqual([false, true]);
    expect(shapeProblems('post-for-me', 'SocialPostResultList', results.json)).toEqual([]);
    expect(shapeProblems('post-for-me', 'SocialPostResult', (await call('GET', `/v1/social-post-results/${results.json.data[0].id}`)).json)).toEqual([]);

    const feed = await call('GET', `/v1/social-account-feeds/${accountId('instagram')}?expand=metrics&limit=1`);
    expect(feed.json.data).toHaveLength(1);
    expect(shapeProblems('post-for-me', 'PlatformPostList', feed.json)).toEqual([]);
    const last = await call('GET', `/v1/social-account-feeds/${accountId('instagram')}?expand=metrics&limit=1&cursor=${feed.json.meta.cursor}`);
    expect(shapeProblems('post-for-me', 'PlatformPostList', last.json)).toEqual([]);
  });

  test('errors: a refused post, an unknown one, a delete the status forbids', async () => {
    const refused = await call('POST', '/v1/social-posts', { caption: '', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }] });
    expect(refused.status).toBe(400);
    expect(shapeProblems('post-for-me', 'InvalidRequest', refused.json)).toEqual([]);
    const unknown = await call('GET', '/v1/social-posts/sp_nope');
    expect([unknown.status, shapeProblems('post-for-me', 'HttpExceptionBody', unknown.json)]).toEqual([404, []]);
    const sent = await call('POST', '/v1/social-posts', { caption: 'Now', social_accounts: [accountId('tiktok')], media: [{ url: VIDEO }] });
    const undeletable = await call('DELETE', `/v1/social-posts/${sent.json.id}`);
    expect([undeletable.status, shapeProblems('post-for-me', 'HttpExceptionBody', undeletable.json)]).toEqual([400, []]);
  });
});

describe('the fal queue double against fal\'s published queue and model schemas', () => {
  let fal: FalDouble;
  const IMAGE = 'https://cdn.example.com/face.png';
  const MODELS: Array<[string, Record<string, unknown>, string]> = [
    ['fal-ai/flux/schnell', { prompt: 'a face' }, 'FluxSchnellOutput'],
    ['fal-ai/kling-video/v2.6/pro/image-to-video', { prompt: 'reacts', start_image_url: IMAGE }, 'VideoOutput'],
    ['fal-ai/kling-video/v2.6/standard/motion-control', { image_url: IMAGE, video_url: 'https://cdn.example.com/ref.mp4', character_orientation: 'video' }, 'VideoOutput'],
    ['fal-ai/kokoro/american-english', { prompt: 'Hello there' }, 'SpeechOutput'],
    ['fal-ai/sync-lipsync', { video_url: 'https://cdn.example.com/r.mp4', audio_url: 'https://cdn.example.com/v.wav' }, 'VideoOutput'],
  ];

  beforeAll(async () => {
    fal = await startFalDouble();
  });
  afterAll(() => fal.close());
  afterEach(() => fal.reset());

  async function call(method: string, url: string, body?: unknown): Promise<{ status: number; json: any }> {
    const response = await fetch(url, { method, headers: { authorization: `Key ${fal.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, json: await response.json() };
  }

  test.each(MODELS)('%s: submit, every status on the way, the output', async (model, input, output) => {
    const submitted = await call('POST', `${fal.baseUrl}/${model}`, input);
    expect(shapeProblems('fal', 'InQueueQueueStatus', submitted.json)).toEqual([]);
    const seen: string[] = [];
    for (let poll = 0; poll < 5 && seen.at(-1) !== 'COMPLETED'; poll++) {
      const status = await call('GET', submitted.json.status_url);
      expect(shapeProblems('fal', 'QueueStatus', status.json)).toEqual([]);
      seen.push(status.json.status);
    }
    expect(seen).toEqual(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED']);
    expect(shapeProblems('fal', output, (await call('GET', submitted.json.response_url)).json)).toEqual([]);
  });

  test('an NSFW image is still a FLUX output, flagged in has_nsfw_concepts', async () => {
    fal.script({ nsfw: true, statuses: ['COMPLETED'] });
    const submitted = await call('POST', `${fal.baseUrl}/fal-ai/flux/schnell`, { prompt: 'a face' });
    await call('GET', submitted.json.status_url);
    const result = await call('GET', submitted.json.response_url);
    expect(shapeProblems('fal', 'FluxSchnellOutput', result.json)).toEqual([]);
    expect(result.json.has_nsfw_concepts).toEqual([true]);
  });

  test.each([
    ['fal-ai/flux/schnell', 'FluxSchnellInput'],
    ['fal-ai/kling-video/v2.6/pro/image-to-video', 'KlingVideoV26ProImageToVideoInput'],
    ['fal-ai/kling-video/v2.6/standard/motion-control', 'KlingVideoV26StandardMotionControlInput'],
    ['fal-ai/kokoro/american-english', 'KokoroAmericanEnglishInput'],
    ['fal-ai/sync-lipsync', 'SyncLipsyncInput'],
  ])('%s: the double takes the fields fal publishes and requires what fal requires', (model, input) => {
    const published = falSchema.definitions[input as keyof typeof falSchema.definitions] as { required: string[]; properties: Record<string, unknown> };
    const spec = FAL_MODELS[model]!;
    expect([...Object.keys(spec.required), ...Object.keys(spec.optional)].filter((field) => !(field in published.properties))).toEqual([]);
    // Kokoro's prompt: optional on fal (it defaults to ""), required by the double, since an empty one speaks nothing.
    const stricter = model === 'fal-ai/kokoro/american-english' ? ['prompt'] : [];
    expect(Object.keys(spec.required).sort()).toEqual([...published.required, ...stricter].sort());
  });

  test('a bad input is a 422 in fal\'s validation error shape', async () => {
    const refused = await call('POST', `${fal.baseUrl}/fal-ai/sync-lipsync`, { video_url: 'https://cdn.example.com/r.mp4' });
    expect(refused.status).toBe(422);
    expect(shapeProblems('fal', 'ValidationError', refused.json)).toEqual([]);
  });

  test('webhooks: delivered to the fal_webhook URL in fal\'s shape, OK and ERROR, and our handler takes both', async () => {
    const receiver = await startLoopbackServer();
    const webhooks = new FalWebhooks();
    receiver.route((request) => {
      const outcome = webhooks.handle(request.body);
      return { status: outcome.ok ? 200 : 400, body: outcome };
    });
    try {
      const hook = `${receiver.url}/internal/fal-webhook?token=t`;
      const submitted = await call('POST', `${fal.baseUrl}/fal-ai/flux/schnell?fal_webhook=${encodeURIComponent(hook)}`, { prompt: 'a face' });
      const failed = await call('POST', `${fal.baseUrl}/fal-ai/flux/schnell?fal_webhook=${encodeURIComponent(hook)}`, { prompt: 'a face' });
      expect(await fal.deliverWebhook(submitted.json.request_id)).toBe(200);
      expect(await fal.deliverWebhook(failed.json.request_id, 'ERROR')).toBe(200);

      const [ok, error] = receiver.seen as Array<{ method: string; path: string; body: any }>;
      expect([ok!.method, ok!.path]).toEqual(['POST', '/internal/fal-webhook']);
      expect(shapeProblems('fal', 'WebHookResponse', ok!.body)).toEqual([]);
      expect(shapeProblems('fal', 'FluxSchnellOutput', ok!.body.payload)).toEqual([]);
      expect(shapeProblems('fal', 'WebHookResponse', error!.body)).toEqual([]);
      expect(shapeProblems('fal', 'ValidationError', error!.body.payload)).toEqual([]);

      // A payload fal could not serialise comes as null with payload_error: still a webhook we take.
      const unserialisable = { request_id: 'r-1', gateway_request_id: 'r-1', status: 'OK', payload: null, payload_error: 'Response payload is not JSON serializable' };
      expect(shapeProblems('fal', 'WebHookResponse', unserialisable)).toEqual([]);
      expect(webhooks.handle(unserialisable)).toMatchObject({ ok: true, requestId: 'r-1' });
    } finally {
      await receiver.close();
    }
  });
});

describe('the Bedrock Runtime double against the service model in the AWS SDK', () => {
  let bedrock: BedrockDouble;
  beforeAll(async () => {
    bedrock = await startBedrockDouble();
  });
  afterAll(() => bedrock.close());
  afterEach(() => bedrock.reset());

  /** One Converse call over HTTP/2, as the SDK sends it, the answer read off the wire. */
  async function converse(): Promise<{ status: number; errorType: string | undefined; json: any }> {
    const session = connect(bedrock.endpoint);
    try {
      return await new Promise((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': '/model/us.amazon.nova-lite-v1%3A0/converse', 'content-type': 'application/json' });
        let status = 0;
        let errorType: string | undefined;
        const chunks: Buffer[] = [];
        stream.on('response', (headers) => {
          status = Number(headers[':status']);
          errorType = headers['x-amzn-errortype'] as string | undefined;
        });
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => resolve({ status, errorType, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        stream.on('error', reject);
        stream.end(JSON.stringify({ system: [{ text: 'Write exactly 3 hook ideas' }], messages: [{ role: 'user', content: [{ text: 'Product name: <<<Glow>>>' }] }] }));
      });
    } finally {
      session.close();
    }
  }

  test.each(['end_turn', 'max_tokens', 'guardrail_intervened', 'content_filtered'] as const)('a Converse answer that stops with %s', async (stopReason) => {
    bedrock.enqueue({ kind: 'hooks', stopReason });
    const answer = await converse();
    expect(answer.status).toBe(200);
    expect(shapeProblems('bedrock-runtime', 'ConverseResponse', answer.json)).toEqual([]);
    expect(answer.json.stopReason).toBe(stopReason);
  });

  test('a service error: the type in x-amzn-ErrorType, the message in the body', async () => {
    bedrock.enqueue({ kind: 'error', type: 'ThrottlingException', status: 429, message: 'Too many requests' });
    const answer = await converse();
    expect([answer.status, answer.errorType?.split(':')[0]]).toEqual([429, 'ThrottlingException']);
    expect(shapeProblems('bedrock-runtime', 'ErrorBody', answer.json)).toEqual([]);
  });
});
