/**
 * Work that outlives the request that caused it. On AWS a task is an asynchronous invocation of its
 * worker Lambda; locally an in-process runner calls the same worker.
 */

export type BackgroundTask =
  | { type: 'normalise-demo'; accountId: number; productId: number; originalKey: string }
  | { type: 'generate-avatar'; accountId: number; avatarId: number }
  | { type: 'sample-demo'; accountId: number; productId: number };

export interface BackgroundTasks {
  dispatch(task: BackgroundTask): Promise<void>;
}
