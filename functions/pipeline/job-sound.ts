/**
 * A job's sound (domain/sound SoundPlan) as local files for the video composer: the same for the preview
 * (the reaction's part alone) and the finished video, so what is approved is what is published.
 */
import { join } from 'node:path';
import { AppError } from '#domain/errors';
import { soundOfJob } from '#domain/jobs';
import type { StoredJob } from '#domain/job-execution';
import { isBuiltInSoundId, soundPlanOf } from '#domain/sound';
import type { Ports } from '#ports/ports';
import type { SoundFiles } from '#ports/video-composer';
import { musicAudioKeyOf } from '#use-cases/music-audio';
import { PipelineError } from './errors';

type SoundDeps = Pick<Ports, 'blobs' | 'sounds' | 'music'>;

/**
 * The job's sound plan as local files: the effect and the bed come from the sound bank (built-in) or
 * the blob store (an account's track). auto's fill bed matters only where there is a demo to fill.
 */
export async function jobSoundFiles(
  deps: SoundDeps,
  job: StoredJob,
  at: { withDemo: boolean; dir: string; /** Where the engine's clip (whose audio is the voice) is or will be. */ voicePath: string },
): Promise<SoundFiles> {
  const { sound, musicId } = soundOfJob(job);
  const plan = soundPlanOf({ sound, musicId, emotion: job.reaction?.emotion ?? null });
  const voicePath = job.reaction?.voice ? at.voicePath : null;
  const fetchSound = async (id: string, name: string) => {
    const path = join(at.dir, name);
    await deps.blobs.getToFile(await soundKeyOf(deps, job.account_id, id), path);
    return path;
  };
  switch (plan.kind) {
    case 'none':
      return { voicePath, effectPath: null, bed: null };
    case 'effect': {
      const [effectPath, fillPath] = await Promise.all([
        fetchSound(plan.effectId, 'effect.m4a'),
        at.withDemo ? fetchSound(plan.fallbackBedId, 'fill.m4a') : Promise.resolve(null),
      ]);
      return { voicePath, effectPath, bed: fillPath ? { path: fillPath, role: 'fill' } : null };
    }
    case 'music':
      return { voicePath, effectPath: null, bed: { path: await fetchSound(plan.musicId, 'music.m4a'), role: 'music' } };
  }
}

/** A built-in sound's key, or the account's track's; a track deleted since the job was made fails it as a deleted input. */
async function soundKeyOf(deps: SoundDeps, accountId: number, id: string): Promise<string> {
  if (isBuiltInSoundId(id)) return deps.sounds.builtInKey(id);
  try {
    return await musicAudioKeyOf(deps, { accountId, musicId: id });
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      throw new PipelineError('input_deleted', `The music track ${id} was deleted while the job ran; create a new job`);
    }
    throw error;
  }
}
