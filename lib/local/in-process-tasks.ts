/**
 * Background tasks run in this process, one at a time (ffmpeg already uses every core), calling the
 * same worker the AWS wiring invokes asynchronously.
 */
import type { BackgroundTask, BackgroundTasks } from '#ports/background-tasks';
import type { PortSource } from '#ports/ports';
import { createHandler as normaliseDemoWorker } from '#handlers/normalise-demo';
import { createHandler as generateAvatarWorker } from '#handlers/generate-avatar';
import { createHandler as sampleDemoWorker } from '#handlers/sample-demo';

export interface InProcessTasks extends BackgroundTasks {
  /** Resolves once every dispatched task has finished. */
  idle(): Promise<void>;
}

type Workers = { [K in BackgroundTask['type']]: (task: Extract<BackgroundTask, { type: K }>) => Promise<void> };

/** `dependencies` are the stack's own: read when a task runs, so the stack may finish building them after this. */
export function inProcessTasks(onError: (error: unknown, task: BackgroundTask) => void, dependencies: PortSource): InProcessTasks {
  const WORKERS: Workers = {
    'normalise-demo': normaliseDemoWorker(dependencies),
    'generate-avatar': generateAvatarWorker(dependencies),
    'sample-demo': sampleDemoWorker(dependencies),
  };
  let tail: Promise<void> = Promise.resolve();
  return {
    async dispatch(task) {
      tail = tail.then(() => WORKERS[task.type](task as never).catch((error) => onError(error, task)));
    },
    idle: () => tail,
  };
}
