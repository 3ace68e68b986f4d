/**
 * The engine's provider requests (ports/engine.ts ProviderRequestLog) kept on the job record, for the
 * job's current round. Writes go one at a time through this log, and each writes the whole round's
 * set it holds: the reaction and its speech are submitted side by side, and neither may drop the other.
 */
import type { ProviderRequest, ProviderRequestLog } from '#ports/engine';
import type { KeptProviderRequests, StoredJob } from '#domain/job-execution';
import { saveProgress, type JobDeps } from './job-context';

export function jobRequestLog(deps: JobDeps, job: StoredJob): ProviderRequestLog {
  const round = job.regenerations;
  const kept = job.provider_requests?.round === round ? job.provider_requests : null;
  const slots: KeptProviderRequests['slots'] = { ...kept?.slots };
  let writes: Promise<unknown> = Promise.resolve();
  const save = () => {
    const write = writes.then(() => saveProgress(deps, job, { provider_requests: { round, slots: { ...slots } } }));
    writes = write.catch(() => undefined);
    return write.then(() => undefined);
  };
  return {
    recall: async (slot: string): Promise<ProviderRequest | null> => slots[slot] ?? null,
    remember: (slot: string, request: ProviderRequest) => {
      slots[slot] = { ...request };
      return save();
    },
    forget: (slot: string) => {
      if (!(slot in slots)) return Promise.resolve();
      delete slots[slot];
      return save();
    },
  };
}
