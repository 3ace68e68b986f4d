/**
 * The step timings the job sections read (bench/step-timings.ts): each step call's time per job, in
 * the order the steps ended, and how many render-function steps are running.
 */
import { stepTimings } from '#bench/step-timings';
import type { StepPayload } from '#pipeline/steps';

const payload = (step: StepPayload['step'], jobId: number): StepPayload => ({ step, account_id: 1, job_id: jobId });

test('record every step call per job, one that threw included, and count the render steps running', async () => {
  const timings = stepTimings();
  let renderingInside = -1;
  await timings.wrapStep(payload('prepare', 1), async () => 'prepared');
  await timings.wrapStep(payload('generate_reaction', 1), async () => {
    renderingInside = timings.rendering();
    await new Promise((r) => setTimeout(r, 20));
  });
  await expect(timings.wrapStep(payload('compose', 2), async () => Promise.reject(new Error('compose failed')))).rejects.toThrow('compose failed');

  expect(renderingInside).toBe(1);
  expect(timings.rendering()).toBe(0);
  expect(timings.of(1).map((s) => s.step)).toEqual(['prepare', 'generate_reaction']);
  expect(timings.of(1)[1]!.ms).toBeGreaterThanOrEqual(15);
  expect(timings.of(2).map((s) => s.step)).toEqual(['compose']);
  expect(timings.of(3)).toEqual([]);
});

test('return what the step returned', async () => {
  await expect(stepTimings().wrapStep(payload('finalize', 1), async () => ({ ok: true }))).resolves.toEqual({ ok: true });
});
