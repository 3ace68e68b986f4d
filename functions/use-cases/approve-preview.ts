/**
 * Approve: the job moves from preview_ready to composing (with any caption changes) by a write
 * conditioned on the pending task token, so of two concurrent decisions one wins and the other is 409;
 * then the decision is handed to the waiting execution. The take chosen (domain/takes.ts) is put on
 * the job by that same write, so Compose, which reads the job, composes exactly the take the winning
 * decision named, and an undone hand-over puts the job back with the take it showed.
 */
import { conflict, notFound } from '#domain/errors';
import { assertCanApprove, JOB_STAGES } from '#domain/jobs';
import type { JobDecision, StoredJob } from '#domain/job-execution';
import { soundOf, type ApproveVideoInput } from '#domain/schemas/video';
import type { Ports } from '#ports/ports';
import { requireMusic } from './job-references';
import { Compensation } from './compensation';
import { handOver, NOT_WAITING, pendingToken } from './hand-over-decision';
import type { UseCaseLog } from './log';
import { JOB_STATE } from '#domain/job-states';
import { changesOfChosenTake, chosenTake } from '#domain/takes';

const APPROVE: JobDecision = { action: 'approve' };

export type ApprovePreviewDeps = Pick<Ports, 'jobs' | 'jobRunner' | 'music' | 'now'> & { log?: UseCaseLog };

export async function approvePreview(deps: ApprovePreviewDeps, input: { accountId: number; jobId: number; changes: ApproveVideoInput }): Promise<StoredJob> {
  const { accountId, jobId, changes } = input;
  const job = await deps.jobs.get(accountId, jobId);
  if (!job) throw notFound('Job');
  assertCanApprove(job);
  const take = chosenTake(job, changes.take);
  const sound = soundOf(changes, 'approve request');
  if (sound) await requireMusic(deps, accountId, sound.musicId);
  const token = pendingToken(job);
  const moved = await deps.jobs.update(
    accountId,
    jobId,
    {
      status: 'processing',
      stage: 'composing',
      progress: Math.max(job.progress, JOB_STAGES.composing),
      task_token: null,
      handed_decision: { token, decision: APPROVE, at: deps.now().toISOString() },
      resume_at: JOB_STATE.Compose,
      ...changesOfChosenTake(take),
      ...(changes.hook_text !== undefined ? { hook_text: changes.hook_text } : {}),
      ...(changes.hook_position !== undefined ? { hook_position: changes.hook_position } : {}),
      ...(changes.hook_size !== undefined ? { hook_size: changes.hook_size } : {}),
      ...(changes.hook_style !== undefined ? { hook_style: changes.hook_style } : {}),
      ...(changes.hook_duration !== undefined ? { hook_duration: changes.hook_duration } : {}),
      ...(sound ? { sound: sound.sound, music_id: sound.musicId } : {}),
    },
    { statusIn: ['preview_ready'], taskToken: token },
  );
  // Another approve or regenerate moved it first: this one must not resume the machine a second time.
  if (!moved) throw conflict(NOT_WAITING);
  const undo = new Compensation(deps);
  undo.add('put the job back at preview_ready', () => deps.jobs.restore(job, { statusIn: ['processing'], taskToken: null, regenerations: job.regenerations }));
  await handOver(deps.jobRunner, token, APPROVE, undo);
  return moved;
}
