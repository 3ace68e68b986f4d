/**
 * Write capacity per partition key (test/support/capacity-model.ts; docs/aws.md "Capacity"): each kind
 * of job driven through the real use cases and DynamoDB stores on a DynamoDB Local of its own (no
 * stack: nothing else writes to the table while it counts), its writes counted per partition key, and the jobs a second the service sustains before one key that
 * jobs of every account share reaches 1,000 WCU a second. The test asserts 500; this prints the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SectionResult, type Table, type SectionOptions } from './report';

export const CAPACITY_DEFAULTS = { rounds: 5, targetJobsPerS: 500 };

export async function runCapacity(options: SectionOptions<typeof CAPACITY_DEFAULTS>): Promise<SectionResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rs-bench-capacity-'));
  const { startDynamoDbLocal } = await import('#local/dynamodb-local');
  const { ensureTable } = await import('#local/provision');
  const { createDynamoTable } = await import('#adapters/aws-clients');
  const { measureCapacity, PARTITION_WCU_PER_S } = await import('#test-support/capacity-model');
  const dynamo = await startDynamoDbLocal({ dbPath: dataDir });
  options.log(`DynamoDB Local on ${dynamo.endpoint}`);
  const table = createDynamoTable({ region: 'us-east-1', tableName: 'capacity', dynamoEndpoint: dynamo.endpoint });
  try {
    await ensureTable(dynamo.endpoint, 'capacity');
    const kinds = await measureCapacity(table, options.rounds);
    const summary: Table = {
      title: `Jobs a second before a shared partition key reaches ${PARTITION_WCU_PER_S} WCU/s`,
      head: ['kind', 'jobs/s', 'hottest shared key', 'WCU/job on it', 'one account alone, jobs/s'],
      rows: kinds.map((k) => [k.kind, String(k.jobsPerSecond), `${k.hottest.where} ${k.hottest.pk}`, (k.hottest.wcuPerJob / k.hottest.shards).toFixed(3), String(k.oneAccountJobsPerSecond)]),
    };
    const perKey: Table[] = kinds.map((k) => ({
      title: `${k.kind}: writes and WCU per job, by partition key (${k.jobs} jobs measured)`,
      head: ['where', 'partition key', 'writes/job', 'WCU/job', 'keys sharing it', 'WCU/job on one key'],
      rows: k.keys.map((load) => [load.where, load.pk, load.writesPerJob.toFixed(2), load.wcuPerJob.toFixed(2), String(load.shards), (load.wcuPerJob / load.shards).toFixed(3)]),
    }));
    return {
      tables: [summary, ...perKey],
      // A ceiling on what one job puts on the hottest shared key: at or under it, the target rate fits in 1,000 WCU/s.
      targets: kinds.map((k) => ({ what: `${k.kind}: WCU per job on the hottest shared key`, value: k.hottest.wcuPerJob / k.hottest.shards, max: PARTITION_WCU_PER_S / options.targetJobsPerS, unit: 'WCU' })),
      notes: ['An account\'s own partition (ACCOUNT#<id>) takes only its jobs: "one account alone" is what one account can sustain.'],
      data: { kinds },
    };
  } finally {
    table.client.destroy();
    await dynamo.child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
