import { AppError } from '../../../functions/domain/errors';
import {
  JOB_LIMITS,
  assertCanApprove,
  assertCanRegenerate,
  chargeNumberOfJob,
  chargeNumberOfRegeneration,
  type JobState,
} from '../../../functions/domain/jobs';

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
