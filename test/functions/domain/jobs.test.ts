import { AppError } from '#domain/errors';
import {
  JOB_LIMITS,
  assertCanApprove,
  assertCanRegenerate,
  chargeNumberOfJob,
  chargeNumberOfRegeneration,
  captionOf,
  jobView,
  peakWithin,
  sameCaption,
  type Job,
  type JobState,
} from '#domain/jobs';

const preview = (overrides: Partial<JobState> = {}): JobState => ({ status: 'preview_ready', method: 'prompt', mode: 'preview', regenerations: 0, ...overrides });

function conflictOf(check: () => void): AppError {
  try {
    check();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 409, code: 'conflict' });
    return error as AppError;
  }
  throw new Error('expected a 409 conflict');
}

describe('approving a job', () => {
  test('a preview job at preview_ready may be approved', () => {
    expect(() => assertCanApprove(preview())).not.toThrow();
  });

  test.each(['queued', 'processing', 'done', 'failed'] as const)('a preview job that is %s is a 409 conflict', (status) => {
    expect(conflictOf(() => assertCanApprove(preview({ status }))).message).toMatch(status);
  });

  test('an auto job is never approved, whatever its state', () => {
    expect(conflictOf(() => assertCanApprove(preview({ mode: 'auto', status: 'done' }))).message).toMatch(/preview jobs/);
  });
});

describe('regenerating a job', () => {
  test('prompt and motion previews at preview_ready may be regenerated', () => {
    expect(() => assertCanRegenerate(preview())).not.toThrow();
    expect(() => assertCanRegenerate(preview({ method: 'motion' }))).not.toThrow();
  });

  test('a reuse job has nothing to re-roll: 409', () => {
    expect(conflictOf(() => assertCanRegenerate(preview({ method: 'reuse' }))).message).toMatch(/saved reaction/);
  });

  test('only at preview_ready, and only for preview jobs', () => {
    conflictOf(() => assertCanRegenerate(preview({ status: 'processing' })));
    conflictOf(() => assertCanRegenerate(preview({ mode: 'auto' })));
  });

  test(`at most ${JOB_LIMITS.maxRegenerations} times`, () => {
    expect(() => assertCanRegenerate(preview({ regenerations: JOB_LIMITS.maxRegenerations - 1 }))).not.toThrow();
    conflictOf(() => assertCanRegenerate(preview({ regenerations: JOB_LIMITS.maxRegenerations })));
  });
});

describe('allowance unit numbering', () => {
  test('the job is unit 1 and each regeneration the next, so every unit has its own ledger entry', () => {
    expect(chargeNumberOfJob()).toBe(1);
    expect([0, 1, 2].map(chargeNumberOfRegeneration)).toEqual([2, 3, 4]);
  });
});

describe('the peak frame of a segment', () => {
  test('is the engine\'s peak when it falls inside the segment, else unknown (the composer\'s default then)', () => {
    expect(peakWithin({ peak_s: 1.7 }, 4)).toBe(1.7);
    expect(peakWithin({ peak_s: 4 }, 4)).toBeNull();
    expect(peakWithin({ peak_s: null }, 4)).toBeNull();
    expect(peakWithin({}, 4)).toBeNull();
  });
});

describe('the job view', () => {
  const job = (overrides: Partial<Job> = {}): Job => ({
    id: 7, account_id: 1, status: 'processing', stage: 'preparing', progress: 5, method: 'prompt', mode: 'auto',
    product_id: 1, avatar_id: null, reaction_id: null, prompt: 'wow', video_source: null, reference_url: null,
    reference_key: null, hook_text: null, hook_position: 'top', hook_size: 'medium', seed: 1, regenerations: 0,
    charged_units: 0, reaction: null, preview: null, preview_expires_at: null, video_id: null, error: null,
    created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-01T00:00:00.000Z', ...overrides,
  });

  test('a job waiting for a render slot shows its place in line', () => {
    expect(jobView(job({ queue_position: 3 })).queue_position).toBe(3);
  });

  test('a job not waiting, or stored before queue positions existed, shows null', () => {
    expect(jobView(job({ queue_position: null })).queue_position).toBeNull();
    expect(jobView(job()).queue_position).toBeNull();
  });

  test("a preview waiting for a decision shows its bare still beside its link; no other job shows one", () => {
    const links = { url: 'https://media.example/preview.mp4', expiresAt: '2026-11-01T01:00:00.000Z', stillUrl: 'https://media.example/still.jpg' };
    const waiting = job({ status: 'preview_ready', stage: 'awaiting_approval' });
    expect(jobView(waiting, links)).toMatchObject({ preview_url: links.url, preview_still_url: links.stillUrl });
    // A clip that came captioned has no still: the link is null, not absent.
    expect(jobView(waiting, { ...links, stillUrl: null }).preview_still_url).toBeNull();
    expect(jobView(job({ status: 'done', stage: 'done' }), links)).toMatchObject({ preview_url: null, preview_still_url: null });
  });

  test('a job that ended never shows a place in line', () => {
    expect(jobView(job({ status: 'done', stage: 'done', queue_position: 2 })).queue_position).toBeNull();
  });

  test('a job stored before caption styles reads as outline over the reaction; a newer one shows its own', () => {
    expect(jobView(job())).toMatchObject({ hook_style: 'outline', hook_duration: 'reaction' });
    expect(jobView(job({ hook_style: 'glow', hook_duration: 'full' }))).toMatchObject({ hook_style: 'glow', hook_duration: 'full' });
  });
});

describe('the caption a job draws', () => {
  const face = { x: 380, y: 650, width: 320, height: 300 };
  const base = { hook_text: 'Wait for it', hook_position: 'middle', hook_size: 'large', reaction: null } as const;
  const reaction = { key: 'r.mp4', duration_s: 4, emotion: null, engine: 'local', seed: 1, face_box: face };

  test('keeps clear of the face the reaction’s engine reported; old records draw outline with no face known', () => {
    expect(captionOf({ ...base, hook_style: 'box', reaction })).toEqual({ text: 'Wait for it', position: 'middle', size: 'large', style: 'box', avoid: face });
    expect(captionOf(base)).toEqual({ text: 'Wait for it', position: 'middle', size: 'large', style: 'outline', avoid: null });
    expect(captionOf({ ...base, hook_text: null })).toBeNull();
  });

  test('the same caption is the same words, place, size and style over the same face (a record without style is outline)', () => {
    const drawn = captionOf({ ...base, reaction })!;
    expect(sameCaption(drawn, { ...drawn, avoid: { ...face } })).toBe(true);
    expect(sameCaption({ text: 'Wait for it', position: 'middle', size: 'large' }, captionOf(base))).toBe(true);
    expect(sameCaption(drawn, { ...drawn, style: 'glow' })).toBe(false);
    expect(sameCaption(drawn, { ...drawn, avoid: null })).toBe(false);
    expect(sameCaption(drawn, { ...drawn, avoid: { ...face, y: 700 } })).toBe(false);
  });
});
