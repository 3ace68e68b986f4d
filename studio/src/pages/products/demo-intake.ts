/**
 * What the new-product form asks of a demo beyond the file, by the API's rules (POST /products:
 * `reframe`, `demo_start_s`, `demo_end_s`; functions/domain/demo-intake.ts): a landscape or square
 * clip is made portrait by a reframe the person chooses, and a part of a clip can be kept (a longer
 * one must be trimmed to at most three minutes). Judged on what the browser read of the file; what it
 * could not read is left to the API. Pure: the form and a test read the same rules.
 */
import type { paths } from '#client/types';
import type { MediaFacts } from '../../intake/file-check';
import { FILE_RULES } from '../../intake/limits';

type ProductBody = paths['/products']['post']['requestBody']['content']['application/json'];
export type Reframe = NonNullable<ProductBody['reframe']>;
export type DemoIntakeBody = Pick<ProductBody, 'reframe'> & { demo_start_s?: number; demo_end_s?: number };

export interface DemoIntakeForm {
  reframe: Reframe;
  /** Seconds as typed; empty: from the beginning. */
  start: string;
  /** Seconds as typed; empty: to the end. */
  end: string;
}

export const DEMO_INTAKE_DEFAULTS: DemoIntakeForm = { reframe: 'blur', start: '', end: '' };

/** The API's bounds on the part kept (DEMO_LENGTH; test/studio/demo-intake.test.ts holds them to it). */
export const KEEP = { minS: 1, maxS: FILE_RULES.demo_video.maxDurationS ?? 180, graceS: FILE_RULES.demo_video.durationGraceS ?? 0.5, endGraceS: 0.1, maxPointS: 3600 } as const;

export type Orientation = 'portrait' | 'landscape' | 'square';

export function orientationOf(facts: MediaFacts | null): Orientation | null {
  if (!facts?.width || !facts.height) return null;
  return facts.height > facts.width ? 'portrait' : facts.width > facts.height ? 'landscape' : 'square';
}

/** A landscape or square clip: the API refuses it unless it is reframed. */
export const needsReframe = (facts: MediaFacts | null) => {
  const orientation = orientationOf(facts);
  return orientation === 'landscape' || orientation === 'square';
};

export type IntakeProblem = { field: 'start' | 'end'; message: string };

const POINT = /^[0-9]{1,4}(\.[0-9]{1,3})?$/;
const seconds = (s: number) => `${Math.round(s * 10) / 10} s`;

function pointOf(text: string, field: IntakeProblem['field']): number | null | IntakeProblem {
  const trimmed = text.trim().replace(',', '.');
  if (!trimmed) return null;
  const value = Number(trimmed);
  if (!POINT.test(trimmed) || value > KEEP.maxPointS) return { field, message: `Seconds from the start of the clip, e.g. 2.5 (at most ${KEEP.maxPointS})` };
  return value;
}

const isProblem = (value: unknown): value is IntakeProblem => typeof value === 'object' && value !== null;

/** The part kept, against the clip's length when the browser read it. */
function judgeKept(start: number, end: number | null, durationS: number | undefined): IntakeProblem | null {
  if (durationS !== undefined && end !== null && end > durationS + KEEP.endGraceS) return { field: 'end', message: `The clip is ${seconds(durationS)} long: end at ${seconds(durationS)} or before` };
  if (durationS !== undefined && start >= durationS) return { field: 'start', message: `The clip is ${seconds(durationS)} long: start before its end` };
  if (end !== null && end <= start) return { field: 'end', message: 'End after the start' };
  const until = end ?? durationS;
  // Neither an end nor the clip's length: the API measures it.
  if (until === undefined) return null;
  const kept = until - start;
  const trimmed = start > 0 || end !== null;
  if (trimmed && kept < KEEP.minS) return { field: end !== null ? 'end' : 'start', message: `Keep at least ${KEEP.minS} s` };
  if (kept > KEEP.maxS + KEEP.graceS) {
    return { field: 'end', message: trimmed ? `That keeps ${seconds(kept)}: at most ${KEEP.maxS / 60} minutes can be kept` : `The clip is ${seconds(kept)} long: set where to end (and start) to keep at most ${KEEP.maxS / 60} minutes` };
  }
  return null;
}

/** The fields POST /products gets with the demo, or what to change first. */
export function demoIntakeBody(form: DemoIntakeForm, facts: MediaFacts | null): DemoIntakeBody | IntakeProblem {
  const start = pointOf(form.start, 'start');
  if (isProblem(start)) return start;
  const end = pointOf(form.end, 'end');
  if (isProblem(end)) return end;
  const problem = judgeKept(start ?? 0, end, facts?.durationS);
  if (problem) return problem;
  return {
    ...(needsReframe(facts) ? { reframe: form.reframe } : {}),
    ...(start !== null && start > 0 ? { demo_start_s: start } : {}),
    ...(end !== null ? { demo_end_s: end } : {}),
  };
}

export const isIntakeProblem = (value: DemoIntakeBody | IntakeProblem): value is IntakeProblem => 'field' in value && 'message' in value;
