/**
 * Background tasks run in this process, one at a time (ffmpeg already uses every core), calling the
 * same worker the AWS wiring invokes asynchronously.
 */
import type { BackgroundTask, BackgroundTasks } from '#ports/background-tasks';
import { normaliseDemo } from '#workers/normalise-demo';
import { generateAvatar } from '#workers/generate-avatar';

export interface InProcessTasks extends BackgroundTasks {
  /** Resolves once every dispatched task has finished. */
  idle(): Promise<void>;
}

const WORKERS: { [K in BackgroundTask['type']]: (task: Extract<BackgroundTask, { type: K }>) => Promise<void> } = {
  'normalise-demo': normaliseDemo,
  'generate-avatar': generateAvatar,
};

export function inProcessTasks(onError: (error: unknown, task: BackgroundTask) => void): InProcessTasks {
  let tail: Promise<void> = Promise.resolve();
  return {
    async dispatch(task) {
      tail = tail.then(() => WORKERS[task.type](task as never).catch((error) => onError(error, task)));
    },
    idle: () => tail,
  };
}
