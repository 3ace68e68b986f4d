/**
 * The workers' safety net over the in-memory stores (they keep the DynamoDB adapters' rules, checked
 * by the store contract tests): demos and prompt avatars still processing past their deadline fail
 * with a reason the API shows; younger ones, and ones that settled meanwhile, are left alone.
 */
import { failStuckProcessing, PROCESSING_DEADLINE_MS } from '#pipeline/stuck-processing';
import { createHandler } from '#handlers/sweeper';
import { productView } from '#domain/product';
import { avatarView } from '#domain/avatar';
import type { JobRunner } from '#ports/job-runner';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

const ORIGINAL = 'accounts/7/products/1/demo-original';

function world() {
  const w = pipelineWorld();
  const demoProcessing = () => w.product({ demo: { status: 'processing', original_key: ORIGINAL } });
  const avatarGenerating = () => w.avatar({ source: 'prompt', prompt: 'a chef', status: 'processing', image_key: null, width: null, height: null });
  return { ...w, demoProcessing, avatarGenerating };
}

describe('records stuck in processing', () => {
  test('a demo normalising and an avatar generating past the deadline fail, with a reason the API shows', async () => {
    const w = world();
    const product = await w.demoProcessing();
    const avatar = await w.avatarGenerating();
    w.advance(PROCESSING_DEADLINE_MS + 1000);
    expect(await failStuckProcessing(w.deps)).toEqual({ failed_demos: 1, failed_avatars: 1 });

    const failedProduct = (await w.deps.products.get(ACCOUNT, product.id))!;
    expect(failedProduct.demo).toEqual({ status: 'failed', original_key: ORIGINAL, error: { code: 'processing_timeout', message: expect.stringMatching(/upload it again/) } });
    expect(productView(failedProduct).demo_video).toMatchObject({ status: 'failed', error: { code: 'processing_timeout' } });
    const failedAvatar = (await w.deps.avatars.get(ACCOUNT, avatar.id))!;
    expect(failedAvatar).toMatchObject({ status: 'failed', image_key: null, error: { code: 'generation_timeout', message: expect.stringMatching(/create it again/) } });
    expect(avatarView(failedAvatar)).toMatchObject({ status: 'failed', error: { code: 'generation_timeout' } });
  });

  test('records younger than the deadline, and records already settled, are left alone; a second sweep changes nothing', async () => {
    const w = world();
    const old = await w.demoProcessing();
    const settled = await w.avatarGenerating();
    await w.deps.avatars.settle(ACCOUNT, settled.id, { status: 'ready', image_key: 'a.png', width: 1, height: 1, engine: 'fal', seed: 1, error: null }, w.deps.now());
    w.advance(PROCESSING_DEADLINE_MS - 60_000);
    const young = await w.demoProcessing();
    w.advance(120_000);
    expect(await failStuckProcessing(w.deps)).toEqual({ failed_demos: 1, failed_avatars: 0 });
    expect((await w.deps.products.get(ACCOUNT, old.id))?.demo?.status).toBe('failed');
    expect((await w.deps.products.get(ACCOUNT, young.id))?.demo?.status).toBe('processing');
    expect((await w.deps.avatars.get(ACCOUNT, settled.id))?.status).toBe('ready');
    expect(await failStuckProcessing(w.deps)).toEqual({ failed_demos: 0, failed_avatars: 0 });
  });

  test('the scheduled sweeper handler runs it with the stranded-work sweep', async () => {
    const w = world();
    await w.avatarGenerating();
    w.advance(PROCESSING_DEADLINE_MS + 1000);
    const jobRunner: JobRunner = { start: async () => undefined, sendDecision: async () => undefined };
    expect(await createHandler(() => ({ ...w.deps, jobRunner }))({})).toEqual({ released: 0, started: 0, redelivered: 0, failed_decisions: 0, failed_demos: 0, failed_avatars: 1, left_for_next_sweep: [] });
  });
});
