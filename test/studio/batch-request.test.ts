/**
 * Variants on New video (studio/src/pages/create/batch-request.ts) and the batch page's summary
 * (batches/batch-words.ts): one video per hook and avatar, each the form's own request, the batch
 * held to POST /videos/batch's schema and limit.
 */
import { BATCH_LIMITS } from '#domain/batches';
import { createVideoBatchInput } from '#domain/schemas/video-batch';
import { batchSettled, batchSummary } from '../../studio/src/pages/batches/batch-words';
import { batchRequest, MAX_VARIANTS, NO_VARIANTS, variantPairs, withHook, type Variants } from '../../studio/src/pages/create/batch-request';
import { CAPTION_DEFAULTS } from '../../studio/src/pages/create/caption';
import { EMPTY_REFERENCE } from '../../studio/src/pages/create/reference';
import { SOUND_DEFAULT } from '../../studio/src/pages/create/sound';
import type { CreateForm } from '../../studio/src/pages/create/video-request';

const form = (changes: Partial<CreateForm> = {}): CreateForm => ({
  productId: '3',
  method: 'prompt',
  prompt: 'shocked by the price',
  avatarId: null,
  reactionId: null,
  mode: 'preview',
  caption: { ...CAPTION_DEFAULTS, text: 'Wait for it', style: 'box' },
  sound: SOUND_DEFAULT,
  voiceLine: '',
  ...changes,
});
const variants = (changes: Partial<Variants> = {}): Variants => ({ ...NO_VARIANTS, on: true, ...changes });
const HOOKS = ['Wait for the glow', 'Day 7 vs day 1', 'Nobody told me this'];

test("the studio's most variants is the API's", () => {
  expect(MAX_VARIANTS).toBe(BATCH_LIMITS.maxVariants);
});

test('three hook ideas make three videos of the same form, each with its hook, as one batch the API takes', () => {
  const body = batchRequest(form(), EMPTY_REFERENCE, variants({ hooks: HOOKS }));
  expect(body).toEqual({
    product_id: 3,
    variants: HOOKS.map((hook_text) => ({ method: 'prompt', prompt: 'shocked by the price', mode: 'preview', hook_text, hook_position: 'top', hook_size: 'medium', hook_style: 'box', hook_duration: 'reaction', sound: 'auto' })),
  });
  expect(createVideoBatchInput.safeParse(body).success).toBe(true);
});

test('several avatars: every hook with each of them, in order', () => {
  expect(variantPairs(form(), variants({ hooks: HOOKS.slice(0, 2), avatarIds: ['4', '1000000001'] }))).toEqual([
    { hook: HOOKS[0], avatarId: '4' },
    { hook: HOOKS[0], avatarId: '1000000001' },
    { hook: HOOKS[1], avatarId: '4' },
    { hook: HOOKS[1], avatarId: '1000000001' },
  ]);
  // No hooks added: the form's own hook with each avatar.
  const body = batchRequest(form(), EMPTY_REFERENCE, variants({ avatarIds: ['4', '5'] }));
  expect(body).toMatchObject({ variants: [{ hook_text: 'Wait for it', avatar_id: 4 }, { hook_text: 'Wait for it', avatar_id: 5 }] });
  expect(createVideoBatchInput.safeParse(body).success).toBe(true);
  // A saved reaction has its own avatar: only the hooks count.
  expect(variantPairs(form({ method: 'reuse', reactionId: '9' }), variants({ hooks: HOOKS, avatarIds: ['4', '5'] }))).toHaveLength(3);
});

test('fewer than two or more than twenty videos are not sent, and the form says why', () => {
  expect(batchRequest(form(), EMPTY_REFERENCE, variants({ hooks: ['Only one'] }))).toBe('Add at least two hooks (or choose two avatars) to make variants.');
  const many = variants({ hooks: Array.from({ length: 7 }, (_, i) => `Hook ${i + 1}`), avatarIds: ['1', '2', '3'] });
  expect(batchRequest(form(), EMPTY_REFERENCE, many)).toBe('That makes 21 videos: a batch makes at most 20. Remove some hooks or avatars.');
});

test('a hook past its limit names the hook; what the form misses is said as for one video', () => {
  expect(batchRequest(form(), EMPTY_REFERENCE, variants({ hooks: ['Fine', 'x'.repeat(104)] }))).toBe(`The hook “${'x'.repeat(29)}…” is 4 characters too long: at most 100`);
  expect(batchRequest(form({ prompt: ' ' }), EMPTY_REFERENCE, variants({ hooks: HOOKS }))).toBe('Describe the reaction in the prompt.');
});

test('an uploaded reference clip goes into one video: motion variants need a link', () => {
  const motion = form({ method: 'motion', avatarId: '4', prompt: '' });
  expect(batchRequest(motion, { ...EMPTY_REFERENCE, uploadId: 'up-1' }, variants({ hooks: HOOKS }))).toBe('An uploaded reference clip goes into one video only: give a link to it instead to make variants.');
  const linked = batchRequest(motion, { ...EMPTY_REFERENCE, source: 'link', url: 'https://example.com/move.mp4' }, variants({ hooks: HOOKS }));
  expect(createVideoBatchInput.safeParse(linked).success).toBe(true);
});

test('a hook is added once, trimmed; an empty one is not added', () => {
  const one = withHook(variants(), '  Wait for the glow ');
  expect(one.hooks).toEqual(['Wait for the glow']);
  expect(withHook(one, 'Wait for the glow')).toBe(one);
  expect(withHook(one, '   ')).toBe(one);
});

test("the batch page's summary counts the variants by where they stand", () => {
  const job = (status: 'queued' | 'processing' | 'preview_ready' | 'done' | 'failed') => ({ status });
  const counts = { queued: 0, processing: 1, preview_ready: 2, done: 0, failed: 0 };
  expect(batchSummary({ jobs: [], counts: { ...counts, processing: 0, preview_ready: 0 } })).toBe('0 videos');
  expect(batchSummary({ jobs: [job('processing'), job('preview_ready'), job('preview_ready')], counts })).toBe('3 videos: 1 being made, 2 previews to review');
  expect(batchSettled({ jobs: [job('processing'), job('done')] })).toBe(false);
  expect(batchSettled({ jobs: [job('preview_ready'), job('done'), job('failed')] })).toBe(true);
});
