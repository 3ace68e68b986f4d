import { AppError } from '#domain/errors';
import { approveVideoInput, createVideoInput, soundOf, regenerateChangesOf, regenerateVideoInput, videoRequestOf } from '#domain/schemas/video';
import { parseInput } from '#http/validate';

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
  test('a prompt job: defaults to auto, hook at the top, medium size, outlined, over the reaction', () => {
    expect(parse({ product_id: 3, method: 'prompt', prompt: 'shocked by the price' })).toEqual({
      productId: 3,
      method: 'prompt',
      mode: 'auto',
      hookText: null,
      hookPosition: 'top',
      hookSize: 'medium',
      hookStyle: 'outline',
      hookDuration: 'reaction',
      prompt: 'shocked by the price',
      avatarId: null,
      videoSource: null,
      referenceUrl: null,
      reactionId: null,
      sound: 'auto',
      musicId: null,
      voiceLine: null,
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
    ['an unknown hook_style', { product_id: 1, method: 'prompt', prompt: 'x', hook_style: 'comic' }, /hook_style: must be one of outline, box, highlight, glow, bold_caps/],
    ['an unknown hook_duration', { product_id: 1, method: 'prompt', prompt: 'x', hook_duration: 'forever' }, /hook_duration: must be one of reaction, full/],
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

describe('regenerate input', () => {
  const changes = (method: 'prompt' | 'motion' | 'reuse', fields: Record<string, unknown>, file = false) =>
    regenerateChangesOf(method, regenerateVideoInput.parse(fields), file);

  it('takes a new prompt on a prompt job, and nothing at all (same inputs, new seed)', () => {
    expect(changes('prompt', { prompt: 'laughing hard' })).toEqual({ prompt: 'laughing hard' });
    expect(changes('prompt', {})).toEqual({});
  });

  it('refuses inputs of another method, naming them', () => {
    expect(() => changes('prompt', { avatar_id: 3 })).toThrow(/avatar_id cannot be changed on a prompt job/);
    expect(() => changes('motion', { prompt: 'x' })).toThrow(/prompt cannot be changed on a motion job/);
    expect(() => changes('prompt', {}, true)).toThrow(/reference_video cannot be changed/);
  });

  it('swaps a motion job to a new link or a new upload, inferring the source when it is left out', () => {
    expect(changes('motion', { reference_url: 'https://www.tiktok.com/@a/video/1.mp4' })).toEqual({
      reference: { source: 'link', url: 'https://www.tiktok.com/@a/video/1.mp4' },
    });
    expect(changes('motion', { video_source: 'upload' }, true)).toEqual({ reference: { source: 'upload' } });
    expect(changes('motion', {}, true)).toEqual({ reference: { source: 'upload' } });
    expect(changes('motion', { avatar_id: '7' })).toEqual({ avatarId: 7 });
  });

  it('takes a caption style and duration on any method (the next preview shows them)', () => {
    for (const method of ['prompt', 'motion', 'reuse'] as const) {
      expect(changes(method, { hook_style: 'box', hook_duration: 'full' })).toEqual({ hookStyle: 'box', hookDuration: 'full' });
    }
    expect(regenerateVideoInput.safeParse({ hook_style: 'comic' }).success).toBe(false);
  });

  it('holds the same source rules as POST /videos', () => {
    expect(() => changes('motion', { video_source: 'link' })).toThrow(/needs reference_url/);
    expect(() => changes('motion', { video_source: 'upload' })).toThrow(/needs a reference_video file/);
    expect(() => changes('motion', { video_source: 'upload', reference_url: 'https://www.tiktok.com/x.mp4' }, true)).toThrow(/reference_url is for video_source=link/);
    expect(() => changes('motion', { reference_url: 'http://127.0.0.1/x.mp4' })).toThrow();
  });
});

describe('approve input', () => {
  it('accepts caption overrides, null to drop the caption, and nothing else', () => {
    expect(approveVideoInput.parse({ hook_text: 'New hook', hook_position: 'bottom', hook_size: 'large' })).toEqual({
      hook_text: 'New hook',
      hook_position: 'bottom',
      hook_size: 'large',
    });
    expect(approveVideoInput.parse({ hook_style: 'highlight', hook_duration: 'full' })).toEqual({ hook_style: 'highlight', hook_duration: 'full' });
    expect(approveVideoInput.safeParse({ hook_style: 'huge' }).success).toBe(false);
    expect(approveVideoInput.parse({ hook_text: null })).toEqual({ hook_text: null });
    expect(approveVideoInput.safeParse({ hook_text: 'x'.repeat(101) }).success).toBe(false);
    expect(approveVideoInput.safeParse({ prompt: 'again' }).success).toBe(false);
  });

  it('may name the take to finish: a whole number from 1, as JSON or as a form field', () => {
    expect(approveVideoInput.parse({ take: 2 })).toEqual({ take: 2 });
    expect(approveVideoInput.parse({ take: '1' })).toEqual({ take: 1 });
    for (const take of [0, -1, 1.5, '01', 'first', null]) {
      expect(() => parseInput(approveVideoInput, { take }, 'approve request')).toThrow(expect.objectContaining({ code: 'bad_request', param: 'take' }));
    }
  });
});

describe('sound fields', () => {
  const prompt = { product_id: 1, method: 'prompt', prompt: 'wow' };

  it('defaults to an effect matched to the reaction, with no music and no voice', () => {
    expect(parse(prompt)).toMatchObject({ sound: 'auto', musicId: null, voiceLine: null });
  });

  it('takes a built-in track or an account track; music_id alone means sound=music', () => {
    expect(parse({ ...prompt, sound: 'music', music_id: 'sunny-pop' })).toMatchObject({ sound: 'music', musicId: 'sunny-pop' });
    expect(parse({ ...prompt, music_id: 't12' })).toMatchObject({ sound: 'music', musicId: 't12' });
    expect(parse({ ...prompt, sound: 'none' })).toMatchObject({ sound: 'none', musicId: null });
  });

  it('refuses a music job without a track, a track with another sound, and unknown tracks or modes', () => {
    expect(badRequestOf(() => parse({ ...prompt, sound: 'music' }))).toMatch(/sound=music needs music_id/);
    expect(badRequestOf(() => parse({ ...prompt, sound: 'none', music_id: 'sunny-pop' }))).toMatch(/music_id is for sound=music, not sound=none/);
    expect(badRequestOf(() => parse({ ...prompt, music_id: 'no-such-track' }))).toMatch(/music_id.*built-in track id or one of your tracks/);
    expect(badRequestOf(() => parse({ ...prompt, music_id: 't0' }))).toMatch(/music_id/);
    expect(badRequestOf(() => parse({ ...prompt, sound: 'loud' }))).toMatch(/sound.*one of auto, music, none/);
  });

  it('takes a voice line of at most 100 characters, except on a reuse job', () => {
    expect(parse({ ...prompt, voice_line: '  Wait, it does that?  ' })).toMatchObject({ voiceLine: 'Wait, it does that?' });
    expect(badRequestOf(() => parse({ ...prompt, voice_line: 'x'.repeat(101) }))).toMatch(/voice_line.*at most 100/);
    expect(badRequestOf(() => parse({ ...prompt, voice_line: 'a\u0007b' }))).toMatch(/voice_line/);
    expect(badRequestOf(() => parse({ product_id: 1, method: 'reuse', reaction_id: 2, voice_line: 'hi' }))).toMatch(/voice_line cannot be used with method=reuse/);
  });

  it('lets approve change the sound but not the voice (the preview already spoke it)', () => {
    expect(approveVideoInput.parse({ sound: 'none' })).toEqual({ sound: 'none' });
    expect(approveVideoInput.safeParse({ voice_line: 'hello' }).success).toBe(false);
    expect(soundOf({}, 'approve request')).toBeNull();
    expect(soundOf({ music_id: 'lofi-study' }, 'approve request')).toEqual({ sound: 'music', musicId: 'lofi-study' });
  });

  it('lets regenerate change the sound and the voice line of any method it re-rolls', () => {
    expect(regenerateChangesOf('prompt', regenerateVideoInput.parse({ voice_line: 'No way!', sound: 'none' }), false)).toEqual({
      sound: { sound: 'none', musicId: null },
      voiceLine: 'No way!',
    });
  });
});
