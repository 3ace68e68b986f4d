import { AppError } from '../../../../functions/domain/errors';
import { createVideoInput, videoRequestOf } from '../../../../functions/domain/schemas/video';
import { parseInput } from '../../../../functions/http/validate';

const parse = (body: Record<string, unknown>, hasReferenceVideo = false) =>
  videoRequestOf(parseInput(createVideoInput, body, 'video request'), hasReferenceVideo);

function badRequestOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request' });
    return (error as AppError).message;
  }
  throw new Error('expected a 400');
}

describe('POST /videos fields', () => {
  test('a prompt job: defaults to auto, hook at the top, medium size', () => {
    expect(parse({ product_id: 3, method: 'prompt', prompt: 'shocked by the price' })).toEqual({
      productId: 3,
      method: 'prompt',
      mode: 'auto',
      hookText: null,
      hookPosition: 'top',
      hookSize: 'medium',
      prompt: 'shocked by the price',
      avatarId: null,
      videoSource: null,
      referenceUrl: null,
      reactionId: null,
    });
  });

  test('form fields arrive as text: ids as digit strings are accepted', () => {
    expect(parse({ product_id: '3', method: 'reuse', reaction_id: '9', mode: 'preview' })).toMatchObject({ productId: 3, reactionId: 9, mode: 'preview' });
  });

  test('a prompt job may name the avatar to react as', () => {
    expect(parse({ product_id: 1, method: 'prompt', prompt: 'laughing', avatar_id: 4 }).avatarId).toBe(4);
  });

  test('a motion job from a link or an uploaded clip', () => {
    expect(parse({ product_id: 1, method: 'motion', avatar_id: 2, video_source: 'link', reference_url: 'https://www.tiktok.com/@a/video/1' }).referenceUrl).toMatch(/tiktok/);
    expect(parse({ product_id: 1, method: 'motion', avatar_id: 2, video_source: 'upload' }, true).videoSource).toBe('upload');
  });

  test.each([
    ['no product_id', { method: 'prompt', prompt: 'x' }, /product_id/],
    ['an unknown method', { product_id: 1, method: 'dance' }, /method: must be one of prompt, motion, reuse/],
    ['an unknown mode', { product_id: 1, method: 'prompt', prompt: 'x', mode: 'later' }, /mode/],
    ['hook_text over 100 characters', { product_id: 1, method: 'prompt', prompt: 'x', hook_text: 'h'.repeat(101) }, /hook_text: must be at most 100/],
    ['an unknown hook_position', { product_id: 1, method: 'prompt', prompt: 'x', hook_position: 'left' }, /hook_position/],
    ['an unknown hook_size', { product_id: 1, method: 'prompt', prompt: 'x', hook_size: 'huge' }, /hook_size/],
    ['an unknown field', { product_id: 1, method: 'prompt', prompt: 'x', voice: 'deep' }, /unknown field\(s\): voice/],
    ['a prompt job without prompt', { product_id: 1, method: 'prompt' }, /needs prompt/],
    ['a prompt job with reaction_id', { product_id: 1, method: 'prompt', prompt: 'x', reaction_id: 2 }, /reaction_id cannot be used with method=prompt/],
    ['a motion job without avatar_id', { product_id: 1, method: 'motion', video_source: 'link', reference_url: 'https://www.tiktok.com/v/1' }, /needs avatar_id/],
    ['a motion job without video_source', { product_id: 1, method: 'motion', avatar_id: 2 }, /needs video_source/],
    ['a motion link without reference_url', { product_id: 1, method: 'motion', avatar_id: 2, video_source: 'link' }, /needs reference_url/],
    ['a motion link to a host not on the list', { product_id: 1, method: 'motion', avatar_id: 2, video_source: 'link', reference_url: 'https://example.com/a.mp4' }, /reference_url/],
    ['a motion link over http', { product_id: 1, method: 'motion', avatar_id: 2, video_source: 'link', reference_url: 'http://www.tiktok.com/v/1' }, /reference_url/],
    ['a motion job with prompt', { product_id: 1, method: 'motion', avatar_id: 2, video_source: 'link', reference_url: 'https://www.tiktok.com/v/1', prompt: 'x' }, /prompt cannot be used with method=motion/],
    ['a reuse job without reaction_id', { product_id: 1, method: 'reuse' }, /needs reaction_id/],
    ['a reuse job with avatar_id', { product_id: 1, method: 'reuse', reaction_id: 1, avatar_id: 1 }, /avatar_id cannot be used with method=reuse/],
  ])('%s is 400 naming the field', (_label, body, message) => {
    expect(badRequestOf(() => parse(body))).toMatch(message);
  });

  test('an uploaded clip needs video_source=upload, and upload needs the clip', () => {
    expect(badRequestOf(() => parse({ product_id: 1, method: 'motion', avatar_id: 2, video_source: 'upload' }))).toMatch(/needs a reference_video file/);
    expect(badRequestOf(() => parse({ product_id: 1, method: 'motion', avatar_id: 2, video_source: 'link', reference_url: 'https://www.tiktok.com/v/1' }, true))).toMatch(/reference_video is for video_source=upload/);
    expect(badRequestOf(() => parse({ product_id: 1, method: 'prompt', prompt: 'x' }, true))).toMatch(/reference_video cannot be used with method=prompt/);
  });
});
