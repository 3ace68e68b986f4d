import { AppError, RefusedAsAsked } from '#domain/errors';
import { demoIntakeOf, intakeWithoutDemo, judgeDemo, type DemoIntake } from '#domain/demo-intake';
import { createProductInput } from '#domain/schemas/product';
import { parseInput } from '#http/validate';

const intake = (fields: Partial<DemoIntake>): DemoIntake => ({ reframe: null, start_s: null, end_s: null, ...fields });
const PORTRAIT = { width: 720, height: 1280, durationS: 10 };
const LANDSCAPE = { width: 1280, height: 720, durationS: 10 };

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the product fields that ask for a reframe or a trim', () => {
  const parse = (fields: Record<string, unknown>) => parseInput(createProductInput, { name: 'Lamp', ...fields }, 'product');

  test('reframe is blur or crop; the trim points are seconds, as JSON numbers or (forms) decimal strings', () => {
    expect(parse({ reframe: 'blur', demo_start_s: 1.5, demo_end_s: 4 })).toMatchObject({ reframe: 'blur', demo_start_s: 1.5, demo_end_s: 4 });
    expect(parse({ reframe: 'crop', demo_start_s: '0.25', demo_end_s: '12' })).toMatchObject({ reframe: 'crop', demo_start_s: 0.25, demo_end_s: 12 });
    expect(parse({})).not.toHaveProperty('reframe');
  });

  test.each([
    ['an unknown reframe', { reframe: 'stretch' }, 'reframe', 'must be one of blur, crop'],
    ['a negative start', { demo_start_s: -1 }, 'demo_start_s', 'must be a number of seconds from 0 to 3600'],
    ['a start past an hour', { demo_start_s: 3601 }, 'demo_start_s', 'must be a number of seconds from 0 to 3600'],
    ['a start in words', { demo_start_s: 'two' }, 'demo_start_s', 'must be a number of seconds'],
    ['a start with an exponent', { demo_start_s: '1e3' }, 'demo_start_s', 'must be a number of seconds'],
    ['an end before the start', { demo_start_s: 5, demo_end_s: 4 }, 'demo_end_s', 'must be greater than demo_start_s'],
    ['an end equal to the start', { demo_start_s: '5', demo_end_s: '5' }, 'demo_end_s', 'must be greater than demo_start_s'],
    ['less than a second kept', { demo_start_s: 5, demo_end_s: 5.5 }, 'demo_end_s', 'must be at least 1 s after demo_start_s'],
    ['an end under a second', { demo_end_s: 0.5 }, 'demo_end_s', 'must be at least 1 s after demo_start_s'],
    ['more than 180 s kept', { demo_start_s: 10, demo_end_s: 190.5 }, 'demo_end_s', 'must be at most 180 s after demo_start_s'],
  ])('%s is a 400 naming the field', (_label, fields, param, message) => {
    const error = refusal(() => parse(fields));
    expect(error).toMatchObject({ status: 400, code: 'bad_request', param });
    expect(error.message).toContain(`${param}: ${message}`);
  });

  test('nothing asked is no intake at all; anything asked is the whole intake', () => {
    expect(demoIntakeOf({})).toBeNull();
    expect(demoIntakeOf({ demo_end_s: 4 })).toEqual({ reframe: null, start_s: null, end_s: 4 });
    expect(demoIntakeOf({ reframe: 'crop', demo_start_s: 0 })).toEqual({ reframe: 'crop', start_s: 0, end_s: null });
  });

  test('asked without a demo, it is a 400 naming the first option sent', () => {
    expect(intakeWithoutDemo(intake({ reframe: 'blur', end_s: 3 }))).toMatchObject({ status: 400, param: 'reframe' });
    const trim = intakeWithoutDemo(intake({ start_s: 1 }));
    expect(trim).toMatchObject({ status: 400, param: 'demo_start_s' });
    expect(trim.message).toBe('demo_start_s applies to a demo video; send it with demo_video, demo_video_upload_id or demo_video_url');
  });
});

describe('judging a measured demo against what was asked', () => {
  test('a portrait demo is kept whole without asking anything, a short one too', () => {
    expect(judgeDemo(PORTRAIT, null)).toBe(10);
    expect(judgeDemo({ ...PORTRAIT, durationS: 0.5 }, null)).toBe(0.5);
  });

  test.each([
    ['landscape', LANDSCAPE],
    ['square', { width: 720, height: 720, durationS: 10 }],
  ])('a %s demo without a reframe is a 422 that names the option, and keeps the upload (refused as asked)', (_shape, facts) => {
    const error = refusal(() => judgeDemo(facts, null));
    expect(error).toBeInstanceOf(RefusedAsAsked);
    expect(error).toMatchObject({ status: 422, code: 'invalid_media', param: 'reframe' });
    expect(error.message).toBe(`demo_video must be vertical (portrait, taller than wide); got ${facts.width}x${facts.height}; send reframe: "blur" or "crop" to reframe it`);
    expect(refusal(() => judgeDemo(facts, intake({ start_s: 1 })))).toMatchObject({ param: 'reframe' });
  });

  test('with a reframe, landscape and square demos are taken', () => {
    expect(judgeDemo(LANDSCAPE, intake({ reframe: 'blur' }))).toBe(10);
    expect(judgeDemo({ width: 720, height: 720, durationS: 3 }, intake({ reframe: 'crop' }))).toBe(3);
  });

  test('a trim keeps the part between its points', () => {
    expect(judgeDemo(PORTRAIT, intake({ start_s: 2, end_s: 5.5 }))).toBe(3.5);
    expect(judgeDemo(PORTRAIT, intake({ start_s: 4 }))).toBe(6);
    expect(judgeDemo(PORTRAIT, intake({ end_s: 10 }))).toBe(10);
  });

  test('an end past the demo is a 400 on demo_end_s saying how long the demo is; a player rounding 9.97 s to 10 is no error', () => {
    const error = refusal(() => judgeDemo(PORTRAIT, intake({ end_s: 12 })));
    expect(error).toMatchObject({ status: 400, code: 'bad_request', param: 'demo_end_s' });
    expect(error.message).toBe('demo_end_s is 12 s but demo_video is 10 s long');
    expect(judgeDemo({ ...PORTRAIT, durationS: 9.97 }, intake({ start_s: 5, end_s: 10 }))).toBeCloseTo(4.97, 5);
  });

  test('a start that leaves under a second is a 400 on demo_start_s', () => {
    const error = refusal(() => judgeDemo(PORTRAIT, intake({ start_s: 9.5 })));
    expect(error).toMatchObject({ status: 400, param: 'demo_start_s' });
    expect(error.message).toBe('demo_start_s (9.5 s) leaves less than 1 s of demo_video, which is 10 s long');
    expect(refusal(() => judgeDemo(PORTRAIT, intake({ start_s: 30 })))).toMatchObject({ param: 'demo_start_s' });
    const short = refusal(() => judgeDemo({ ...PORTRAIT, durationS: 0.95 }, intake({ end_s: 1 })));
    expect(short).toMatchObject({ status: 400, param: 'demo_end_s' });
    expect(short.message).toBe('demo_end_s (0.95 s) leaves less than 1 s of demo_video, which is 0.95 s long');
  });

  test('over 180 s is refused unless a trim keeps at most 180 s of it', () => {
    const long = { ...PORTRAIT, durationS: 300 };
    const whole = refusal(() => judgeDemo(long, null));
    expect(whole).toBeInstanceOf(RefusedAsAsked);
    expect(whole).toMatchObject({ status: 422, code: 'invalid_media', param: 'demo_end_s' });
    expect(whole.message).toMatch(/^demo_video must be at most 180 s long; got 300 s\. .*send demo_start_s and demo_end_s/);
    expect(judgeDemo({ ...PORTRAIT, durationS: 180.4 }, null)).toBeCloseTo(180.4, 5);
    expect(judgeDemo(long, intake({ start_s: 60, end_s: 240 }))).toBe(180);
    expect(judgeDemo(long, intake({ start_s: 120 }))).toBe(180);
    const startOnly = refusal(() => judgeDemo(long, intake({ start_s: 60 })));
    expect(startOnly).toMatchObject({ status: 400, param: 'demo_end_s' });
    expect(startOnly.message).toBe('demo_start_s and demo_end_s keep 240 s of demo_video; at most 180 s may be kept');
  });
});
