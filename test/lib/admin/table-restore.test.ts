/**
 * The restore runbook, rehearsed against DynamoDB Local (docs/aws.md, Restoring the table): records
 * written through the app's stores are exported, restored into a NEW table, and the same stores read
 * the same records from it; the new table has what the stack's own has (the keys-only stream it
 * needs, TTL, deletion protection; DynamoDB Local has no point-in-time recovery to switch on). A restore never writes into a table that exists, and an incomplete export is refused.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readdir, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { createDynamoTable } from '#adapters/aws-clients';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { hashKey } from '#domain/api-keys';
import { DEFAULT_REGION } from '#functions/config';
import { newJob } from '#domain/job-execution';
import { exportTable, restoreFromExport } from '#admin/table-restore';
import { TABLE_SCHEMA } from '#lib/table-schema';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { deleteTable, sharedEndpoints, uniqueName } from '#test-support/services';
import { NOW, PERIOD, promptRequest } from '#test-support/video-jobs';

let source: TestTable;
let client: DynamoDBClient;
let dir: string;
const restoredTables: string[] = [];
const ROOT = join(__dirname, '..', '..', '..');

beforeAll(async () => {
  source = await startTestTable();
  client = new DynamoDBClient({ endpoint: sharedEndpoints().dynamoEndpoint, region: DEFAULT_REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-restore-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));
afterAll(async () => {
  for (const name of restoredTables) {
    // A restored table is protected against deletion, as the stack's own is.
    await client.send(new UpdateTableCommand({ TableName: name, DeletionProtectionEnabled: false })).catch(() => undefined);
    await deleteTable(sharedEndpoints().dynamoEndpoint, name);
  }
  client.destroy();
  await source.stop();
});

const newTableName = () => {
  const name = uniqueName('restored');
  restoredTables.push(name);
  return name;
};

/** An account with a key, a product and a finished video (its job done, its unit charged), through the app's stores. */
async function writeRecords() {
  const stores = dynamoStores(source.table);
  const account = await stores.accounts.create('Restored Inc', 'pro', NOW);
  const key = await stores.apiKeys.create(account.id, ['read', 'write'], NOW, 'CI');
  const productId = await stores.products.newProductId();
  const at = NOW.toISOString();
  await stores.products.create({ id: productId, account_id: account.id, name: 'Glow serum', description: 'a serum', demo: null, created_at: at, updated_at: at });
  const job = newJob(account.id, await stores.jobs.newJobId(account.id), promptRequest(productId), null, 7, NOW);
  const unit = { ref: { accountId: account.id, jobId: job.id, chargeNumber: 1 }, period: PERIOD, limit: 150 };
  await stores.jobs.create(job, undefined, unit, NOW);
  await stores.jobs.update(account.id, job.id, { status: 'processing' });
  const videoId = await stores.videos.newVideoId(account.id);
  const video = {
    id: videoId, account_id: account.id, job_id: job.id, product_id: productId, key: 'v.mp4', poster_key: 'p.jpg',
    duration_s: 9, width: 1080, height: 1920, size_bytes: 10, retention_days: 365, file_expires_at: '2027-11-26T00:00:00.000Z', created_at: at,
  };
  await stores.jobs.finishWithVideo(job, video, { chargedUnits: 1, charge: unit.ref }, NOW);
  return { accountId: account.id, rawKey: key.key, productId, jobId: job.id, videoId };
}

/** What the app reads of those records, through the stores on `table`. */
async function readBack(tableName: string, ids: Awaited<ReturnType<typeof writeRecords>>) {
  const table = createDynamoTable({ region: DEFAULT_REGION, tableName, dynamoEndpoint: sharedEndpoints().dynamoEndpoint });
  try {
    const stores = dynamoStores(table);
    return {
      account: await stores.accounts.get(ids.accountId),
      key: await stores.apiKeys.findByHash(hashKey(ids.rawKey)),
      keys: await stores.apiKeys.listOfAccount(ids.accountId),
      products: await stores.products.list(ids.accountId, 1, 10),
      job: await stores.jobs.get(ids.accountId, ids.jobId),
      videos: await stores.videos.list(ids.accountId, 1, 10),
      usage: await stores.ledger.periodUsage(ids.accountId, PERIOD),
      // Ids go on from where they were: the next one is not one already used.
      nextVideoId: await stores.videos.newVideoId(ids.accountId),
    };
  } finally {
    table.client.destroy();
  }
}

describe('npm run restore: export, then restore into a new table', () => {
  test('the app reads from the new table exactly what it wrote to the old one, and the new table has the stream and TTL', async () => {
    const ids = await writeRecords();
    const exported = await exportTable(client, source.table.name, dir, NOW);
    expect(exported.itemCount).toBeGreaterThan(5);
    expect((await readdir(join(dir, 'data'))).every((f) => f.endsWith('.json.gz'))).toBe(true);

    const tableName = newTableName();
    const restored = await restoreFromExport(client, { from: dir, tableName });
    expect(restored).toMatchObject({ tableName, items: exported.itemCount, streamArn: expect.stringContaining(tableName) });

    const before = await readBack(source.table.name, ids);
    const after = await readBack(tableName, ids);
    expect(after).toEqual(before);
    expect(after.account).toMatchObject({ name: 'Restored Inc', plan: 'pro' });
    expect(after.key).toMatchObject({ account_id: ids.accountId, name: 'CI' });
    expect(after.videos).toMatchObject({ total: 1, items: [{ id: ids.videoId, retention_days: 365 }] });
    expect(after.usage).toEqual({ used: 1, reserved: 0 });

    const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table!;
    expect(table.StreamSpecification).toMatchObject({ StreamEnabled: true, StreamViewType: 'KEYS_ONLY' });
    expect(table.DeletionProtectionEnabled).toBe(true);
    expect(table.GlobalSecondaryIndexes?.map((g) => g.IndexName)).toEqual(TABLE_SCHEMA.globalIndexes.map((g) => g.name));
    // Each index projects what the stack's does (gsi2 only the attributes that never change), as the source table's.
    const projections = (t: typeof table) => Object.fromEntries((t.GlobalSecondaryIndexes ?? []).map((g) => [g.IndexName, g.Projection]));
    const sourceTable = (await client.send(new DescribeTableCommand({ TableName: source.table.name }))).Table!;
    expect(projections(table)).toEqual(projections(sourceTable));
    expect(projections(table).gsi2).toMatchObject({ ProjectionType: 'INCLUDE' });
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ AttributeName: TABLE_SCHEMA.ttlAttribute, TimeToLiveStatus: 'ENABLED' });
  });

  test('never writes into a table that exists, the source least of all', async () => {
    await writeRecords();
    await exportTable(client, source.table.name, dir, NOW);
    await expect(restoreFromExport(client, { from: dir, tableName: source.table.name })).rejects.toThrow(/exists: a restore goes into a NEW table/);
  });

  test('an export missing a data file is refused, naming the counts', async () => {
    await writeRecords();
    await exportTable(client, source.table.name, dir, NOW);
    const [first] = await readdir(join(dir, 'data'));
    await unlink(join(dir, 'data', first!));
    await expect(restoreFromExport(client, { from: dir, tableName: newTableName() })).rejects.toThrow(/wrote 0 items, the export's manifest says \d+/);
  });

  test('as the runbook runs it: npm run restore -- export, then load, each answering JSON and what to run next', async () => {
    const ids = await writeRecords();
    const endpoint = sharedEndpoints().dynamoEndpoint;
    const restore = async (...args: string[]) => {
      const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'bin', 'restore.ts'), ...args, '--endpoint', endpoint], { cwd: ROOT });
      return JSON.parse(stdout) as { next: string } & Record<string, { itemCount?: number; items?: number; streamArn?: string }>;
    };
    const exported = await restore('export', '--table', source.table.name, '--to', dir);
    const tableName = newTableName();
    const loaded = await restore('load', '--from', dir, '--table', tableName);
    expect(loaded.restored).toMatchObject({ items: exported.exported!.itemCount, streamArn: expect.stringContaining(tableName) });
    expect(loaded.next).toBe(`stop the local stack, then start it on the restored table: TABLE_NAME=${tableName} npm start`);
    expect((await readBack(tableName, ids)).account).toMatchObject({ id: ids.accountId, name: 'Restored Inc' });
  }, 60_000);
});
