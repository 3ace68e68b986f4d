/**
 * The new-product form's reframe and trim (studio/src/pages/products/demo-intake.ts), held to the API:
 * its bounds are DEMO_LENGTH's, each body passes POST /products' schema, and for a clip of known shape
 * and length the form refuses exactly what the API's judgeDemo would refuse.
 */
import { DEMO_LENGTH, demoIntakeOf, judgeDemo } from '#domain/demo-intake';
import { createProductInput } from '#domain/schemas/product';
import { DEMO_INTAKE_DEFAULTS, demoIntakeBody, isIntakeProblem, KEEP, needsReframe, orientationOf, type DemoIntakeForm } from '../../studio/src/pages/products/demo-intake';

const TALL = { width: 1080, height: 1920, durationS: 12 };
const WIDE = { width: 1920, height: 1080, durationS: 12 };
const form = (changes: Partial<DemoIntakeForm> = {}): DemoIntakeForm => ({ ...DEMO_INTAKE_DEFAULTS, ...changes });

test("the bounds are the API's", () => {
  expect(KEEP).toEqual({ minS: DEMO_LENGTH.minKeptS, maxS: DEMO_LENGTH.maxKeptS, graceS: DEMO_LENGTH.graceS, endGraceS: DEMO_LENGTH.endGraceS, maxPointS: DEMO_LENGTH.maxPointS });
});

test('the shape the browser read: a reframe is asked for only for a landscape or square clip', () => {
  expect([TALL, WIDE, { width: 720, height: 720 }, {}].map((facts) => orientationOf(facts))).toEqual(['portrait', 'landscape', 'square', null]);
  expect([TALL, WIDE, { width: 720, height: 720 }, null].map(needsReframe)).toEqual([false, true, true, false]);
});

test('a portrait clip kept whole sends nothing more; a landscape one sends the chosen reframe', () => {
  expect(demoIntakeBody(form(), TALL)).toEqual({});
  expect(demoIntakeBody(form({ reframe: 'crop' }), TALL)).toEqual({});
  expect(demoIntakeBody(form(), WIDE)).toEqual({ reframe: 'blur' });
  expect(demoIntakeBody(form({ reframe: 'crop' }), { width: 720, height: 720, durationS: 5 })).toEqual({ reframe: 'crop' });
  // What the browser could not read is the API's to judge.
  expect(demoIntakeBody(form(), null)).toEqual({});
});

test('trim points are seconds; a start of 0 is the default and is not sent', () => {
  expect(demoIntakeBody(form({ start: '2', end: '9.5' }), TALL)).toEqual({ demo_start_s: 2, demo_end_s: 9.5 });
  expect(demoIntakeBody(form({ start: '0', end: ' 4,25 ' }), TALL)).toEqual({ demo_end_s: 4.25 });
  expect(demoIntakeBody(form({ start: 'two' }), TALL)).toEqual({ field: 'start', message: 'Seconds from the start of the clip, e.g. 2.5 (at most 3600)' });
  expect(demoIntakeBody(form({ end: '-3' }), TALL)).toMatchObject({ field: 'end' });
});

test('the part kept: after the start, at least a second, within the clip, at most three minutes', () => {
  expect(demoIntakeBody(form({ start: '5', end: '5' }), TALL)).toEqual({ field: 'end', message: 'End after the start' });
  expect(demoIntakeBody(form({ start: '5', end: '5.5' }), TALL)).toEqual({ field: 'end', message: 'Keep at least 1 s' });
  expect(demoIntakeBody(form({ end: '20' }), TALL)).toEqual({ field: 'end', message: 'The clip is 12 s long: end at 12 s or before' });
  expect(demoIntakeBody(form({ start: '12' }), TALL)).toEqual({ field: 'start', message: 'The clip is 12 s long: start before its end' });
  const long = { ...TALL, durationS: 300 };
  expect(demoIntakeBody(form(), long)).toEqual({ field: 'end', message: 'The clip is 300 s long: set where to end (and start) to keep at most 3 minutes' });
  expect(demoIntakeBody(form({ start: '60' }), long)).toEqual({ field: 'end', message: 'That keeps 240 s: at most 3 minutes can be kept' });
  expect(demoIntakeBody(form({ start: '130' }), long)).toEqual({ demo_start_s: 130 });
});

test('every body passes POST /products’ schema beside a demo upload', () => {
  for (const body of [demoIntakeBody(form({ start: '2', end: '9.5' }), WIDE), demoIntakeBody(form({ reframe: 'crop' }), WIDE), demoIntakeBody(form(), TALL)]) {
    expect(isIntakeProblem(body)).toBe(false);
    expect(createProductInput.safeParse({ name: 'Serum', demo_video_upload_id: '0b6c4a52-8f0e-4d7e-9c1a-2f3b4c5d6e7f', ...body }).error?.issues ?? []).toEqual([]);
  }
});

test('for a clip of known shape and length, the form refuses exactly what the API refuses', () => {
  const clips = [TALL, WIDE, { width: 720, height: 720, durationS: 3 }, { ...TALL, durationS: 180.4 }, { ...TALL, durationS: 181 }, { ...WIDE, durationS: 400 }];
  const points = [
    ['', ''],
    ['1', ''],
    ['', '2'],
    ['3', '3.5'],
    ['0', '11.05'],
    ['2', '12.2'],
    ['10', ''],
    ['100', '200'],
    ['150', ''],
    ['220', '400'],
  ];
  for (const facts of clips) {
    for (const [start, end] of points) {
      const body = demoIntakeBody(form({ start, end }), facts);
      const studioTakes = !isIntakeProblem(body);
      let apiTakes = true;
      try {
        const intake = studioTakes ? demoIntakeOf(body) : demoIntakeOf({ reframe: 'blur', demo_start_s: start ? Number(start) : undefined, demo_end_s: end ? Number(end) : undefined });
        judgeDemo(facts, intake);
      } catch {
        apiTakes = false;
      }
      expect({ facts, start, end, takes: studioTakes }).toEqual({ facts, start, end, takes: apiTakes });
    }
  }
});
