/**
 * Work that outlives the request that caused it. On AWS a task is an asynchronous invocation of its
 * worker Lambda; locally the runtime installs an in-process runner that calls the same worker.
 */

export type BackgroundTask =
  | { type: 'normalise-demo'; accountId: number; productId: number; originalKey: string }
  | { type: 'generate-avatar'; accountId: number; avatarId: number };

export interface BackgroundTasks {
  dispatch(task: BackgroundTask): Promise<void>;
}

let installed: BackgroundTasks | undefined;

export function installBackgroundTasks(tasks: BackgroundTasks | undefined): void {
  installed = tasks;
}

export async function dispatchTask(task: BackgroundTask): Promise<void> {
  if (!installed) {
    const { lambdaBackgroundTasks } = await import('#adapters/lambda/background-tasks');
    installed = lambdaBackgroundTasks();
  }
  await installed.dispatch(task);
}
