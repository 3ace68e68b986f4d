/** Recent job durations in memory, with the DynamoDB store's rules (the shared contract test holds both to them). */
import type { JobDurationStore } from '#ports/job-durations';

export class MemoryJobDurations implements JobDurationStore {
  private readonly kinds = new Map<string, Map<number, number>>();

  async record(kind: string, slot: number, seconds: number): Promise<void> {
    if (!this.kinds.has(kind)) this.kinds.set(kind, new Map());
    this.kinds.get(kind)!.set(slot, seconds);
  }

  async samples(kind: string): Promise<number[]> {
    return [...(this.kinds.get(kind)?.values() ?? [])];
  }
}
