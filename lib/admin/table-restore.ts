/**
 * Restoring the table into a NEW one (docs/aws.md, Restoring the table): `npm run restore`.
 *
 * - `exportTable` writes a table out in the layout of DynamoDB's own export to S3 in DynamoDB JSON
 *   (`manifest-summary.json` and `data/*.json.gz`, one `{"Item": …}` per line), from a consistent scan:
 *   for DynamoDB Local, or a table on AWS small enough to scan.
 * - `restoreFromExport` reads such a folder (this export, or one DynamoDB exported to S3 and copied
 *   down with `aws s3 sync`), creates the new table with the stack's schema, writes every item and
 *   checks the count against the manifest. It never writes into a table that exists.
 * - `prepareRestoredTable` gives a new table what the stack's own has and a restore does not carry
 *   over (the keys-only stream, TTL, point-in-time recovery, deletion protection), for a table made
 *   here or by AWS (a point-in-time or AWS Backup restore), and answers the stream the stack needs.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ScanCommand,
  UpdateContinuousBackupsCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type AttributeValue,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_SCHEMA } from '#lib/table-schema';

type Item = Record<string, AttributeValue>;

/** What DynamoDB's export writes beside its data (the fields this reads), and what this export writes. */
interface ExportManifest {
  exportFormat: 'DYNAMODB_JSON';
  itemCount: number;
  tableName?: string;
  exportTime?: string;
}

const MANIFEST = 'manifest-summary.json';
const DATA = 'data';
/** Items per data file: DynamoDB's export splits its data files too. */
const ITEMS_PER_FILE = 10_000;
/** BatchWriteItem's own limit. */
const BATCH = 25;

export async function exportTable(client: DynamoDBClient, tableName: string, dir: string, now = new Date()): Promise<ExportManifest> {
  await mkdir(join(dir, DATA), { recursive: true });
  let lines: string[] = [];
  let files = 0;
  let itemCount = 0;
  const flush = async () => {
    if (lines.length === 0) return;
    await writeFile(join(dir, DATA, `${String(files++).padStart(5, '0')}.json.gz`), gzipSync(`${lines.join('\n')}\n`));
    lines = [];
  };
  let startKey: Item | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey: startKey }));
    for (const item of page.Items ?? []) {
      lines.push(JSON.stringify({ Item: item }));
      itemCount++;
      if (lines.length >= ITEMS_PER_FILE) await flush();
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  await flush();
  const manifest: ExportManifest = { exportFormat: 'DYNAMODB_JSON', itemCount, tableName, exportTime: now.toISOString() };
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Every item of an export folder, file by file. */
async function* exportedItems(dir: string): AsyncGenerator<Item> {
  const files = (await readdir(join(dir, DATA))).filter((name) => name.endsWith('.json.gz') || name.endsWith('.json')).sort();
  for (const name of files) {
    const raw = await readFile(join(dir, DATA, name));
    const text = name.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const parsed = JSON.parse(line) as { Item?: Item };
      if (!parsed.Item) throw new Error(`${join(DATA, name)}: a line without "Item" (is this a DynamoDB JSON export?)`);
      yield parsed.Item;
    }
  }
}

async function readManifest(dir: string): Promise<ExportManifest> {
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as Partial<ExportManifest>;
  if (manifest.exportFormat !== 'DYNAMODB_JSON') throw new Error(`${join(dir, MANIFEST)}: exportFormat ${String(manifest.exportFormat)}; only DYNAMODB_JSON exports are read`);
  if (typeof manifest.itemCount !== 'number') throw new Error(`${join(dir, MANIFEST)}: no itemCount`);
  return manifest as ExportManifest;
}

/** The stack's table schema (lib/table-schema.ts), on demand, with its keys-only stream (gsi2's INCLUDE projection too); refuses a name in use. */
async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName, { keysOnlyStream: true })));
  } catch (error) {
    if (error instanceof ResourceInUseException) throw new Error(`table ${tableName} exists: a restore goes into a NEW table (pick another name)`, { cause: error });
    throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 300 }, { TableName: tableName });
}

/** Writes the items in batches of 25, sending back what DynamoDB left unprocessed (throttled). */
async function writeItems(client: DynamoDBClient, tableName: string, items: AsyncIterable<Item>): Promise<number> {
  let batch: WriteRequest[] = [];
  let written = 0;
  const send = async () => {
    let pending = batch;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 50 * 2 ** attempt)));
      if (attempt > 10) throw new Error(`${pending.length} items stayed unprocessed after ${attempt} tries`);
      const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }));
      pending = out.UnprocessedItems?.[tableName] ?? [];
    }
    written += batch.length;
    batch = [];
  };
  for await (const item of items) {
    batch.push({ PutRequest: { Item: item } });
    if (batch.length === BATCH) await send();
  }
  await send();
  return written;
}

export interface RestoreResult {
  tableName: string;
  items: number;
  streamArn: string;
}

/** An export folder into a new table, checked item for item against its manifest, and prepared for the stack. */
export async function restoreFromExport(client: DynamoDBClient, options: { from: string; tableName: string }): Promise<RestoreResult> {
  const manifest = await readManifest(options.from);
  await createTable(client, options.tableName);
  const items = await writeItems(client, options.tableName, exportedItems(options.from));
  if (items !== manifest.itemCount) throw new Error(`wrote ${items} items, the export's manifest says ${manifest.itemCount}: the export is incomplete`);
  const { streamArn } = await prepareRestoredTable(client, options.tableName);
  return { tableName: options.tableName, items, streamArn };
}

/**
 * What the stack's own table has and a restore leaves out. DynamoDB Local has no point-in-time
 * recovery (it answers UnknownOperationException): there, and only there, that one is left out.
 */
export async function prepareRestoredTable(client: DynamoDBClient, tableName: string): Promise<{ streamArn: string }> {
  const described = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  if (!described?.StreamSpecification?.StreamEnabled) {
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' } }));
  } else if (described.StreamSpecification.StreamViewType !== 'KEYS_ONLY') {
    throw new Error(`table ${tableName} streams ${described.StreamSpecification.StreamViewType}; the stack reads a KEYS_ONLY stream (disable it and run prepare again)`);
  }
  await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true } })).catch((error: unknown) => {
    // Already on (a second prepare) is what was asked.
    if (!/already enabled/i.test(String((error as Error).message))) throw error;
  });
  await client
    .send(new UpdateContinuousBackupsCommand({ TableName: tableName, PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }))
    .catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'UnknownOperationException') throw error;
    });
  await client.send(new UpdateTableCommand({ TableName: tableName, DeletionProtectionEnabled: true }));
  const streamArn = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${tableName} has no stream ARN after enabling its stream`);
  return { streamArn };
}
