/**
 * Recent job durations: one item per kind, one attribute per slot (`s0` … `s20`), each write a plain
 * SET of one slot, so concurrent jobs never contend for a read-modify-write.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { JobDurationStore } from '#ports/job-durations';
import type { DynamoTable } from './table';
import { keys } from './keys';

const SLOT = /^s\d+$/;

export class DynamoJobDurations implements JobDurationStore {
  constructor(private readonly table: DynamoTable) {}

  async record(kind: string, slot: number, seconds: number): Promise<void> {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.jobDurations(kind),
        UpdateExpression: 'SET #slot = :seconds, #type = :type',
        ExpressionAttributeNames: { '#slot': `s${slot}`, '#type': 'type' },
        ExpressionAttributeValues: { ':seconds': seconds, ':type': 'job_durations' },
      }),
    );
  }

  async samples(kind: string): Promise<number[]> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.jobDurations(kind) }));
    return Object.entries(out.Item ?? {})
      .filter(([name, value]) => SLOT.test(name) && typeof value === 'number')
      .map(([, value]) => value as number);
  }
}
