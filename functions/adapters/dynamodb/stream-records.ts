/**
 * The table's stream as the job starter reads it (KEYS_ONLY records, lib/cloud/job-pipeline.ts): which
 * records name a job, by the table's own key design; and as the live-update pusher reads it
 * (lib/cloud/live-updates.ts): which records are jobs, products or avatars that changed. A record that is not a job's insert, or is not
 * shaped as DynamoDB Streams sends it, names none.
 */
import * as z from 'zod/mini';
import { keys } from './keys';
import type { DynamoTable } from './table';
import type { ChangedRecord, UpdateResource } from '#domain/live-updates';

const streamRecord = z.object({
  eventName: z.string(),
  dynamodb: z.object({
    SequenceNumber: z.string(),
    Keys: z.object({ pk: z.object({ S: z.string() }), sk: z.object({ S: z.string() }) }),
  }),
});

export interface StreamedJob {
  /** What Lambda's partial batch response names a record by. */
  sequenceNumber: string;
  job: { accountId: number; jobId: number };
}

/** One well-shaped record of a stream event: what happened, to which key, under which sequence number. */
interface StreamedKey {
  eventName: string;
  sequenceNumber: string;
  key: { pk: string; sk: string };
}

/** The records of a stream event shaped as DynamoDB Streams sends them, in order; anything else is left out. */
function streamedKeysOf(event: unknown): StreamedKey[] {
  const records = z.object({ Records: z.array(z.unknown()) }).safeParse(event);
  if (!records.success) return [];
  return records.data.Records.flatMap((raw) => {
    const record = streamRecord.safeParse(raw);
    if (!record.success) return [];
    const { SequenceNumber, Keys } = record.data.dynamodb;
    return [{ eventName: record.data.eventName, sequenceNumber: SequenceNumber, key: { pk: Keys.pk.S, sk: Keys.sk.S } }];
  });
}

/** The inserted jobs an event's records name, in order; anything else is left out. */
export function insertedJobsOf(event: unknown): StreamedJob[] {
  return streamedKeysOf(event).flatMap(({ eventName, sequenceNumber, key }) => {
    const job = eventName === 'INSERT' ? keys.jobOfKey(key) : undefined;
    return job ? [{ sequenceNumber, job }] : [];
  });
}

const FOLLOWED_RECORDS: Record<string, UpdateResource> = { JOB: 'job', PRODUCT: 'product', AVATAR: 'avatar' };
const FOLLOWED_KEY = /^(JOB|PRODUCT|AVATAR)#([0-9]{12})$/;

/** The record a key names, when it is one live updates follow (a job, a product, an avatar), in its account's scope. */
function followedRecordOfKey(key: { pk: string; sk: string }): ChangedRecord | undefined {
  const account = /^ACCOUNT#([1-9][0-9]{0,15})$/.exec(key.pk);
  const record = FOLLOWED_KEY.exec(key.sk);
  if (!account || !record || Number(record[2]) < 1) return undefined;
  return { scopeId: Number(account[1]), topic: { resource: FOLLOWED_RECORDS[record[1]!]!, id: Number(record[2]) } };
}

/** The jobs, products and avatars an event's records wrote (inserted or changed), in order; anything else is left out. */
export function changedRecordsOf(event: unknown): ChangedRecord[] {
  return streamedKeysOf(event).flatMap(({ eventName, key }) => {
    const found = eventName === 'REMOVE' ? undefined : followedRecordOfKey(key);
    return found ? [found] : [];
  });
}

type KeyValue = string | { S?: string } | undefined;
type Keyed = { pk?: KeyValue; sk?: KeyValue } | undefined;
type WriteRequest = {
  Item?: Keyed;
  Key?: Keyed;
  TransactItems?: { Put?: { Item?: Keyed }; Update?: { Key?: Keyed } }[];
  RequestItems?: Record<string, { PutRequest?: { Item?: Keyed } }[]>;
};

/** The commands that put or update items, in the document client's names and the low-level client's. */
const WRITES = new Set(['PutCommand', 'UpdateCommand', 'TransactWriteCommand', 'BatchWriteCommand', 'PutItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

const text = (value: KeyValue) => (typeof value === 'string' ? value : value?.S);

/** The followed records a write request puts or updates (deletes are not updates), native or marshalled. */
function followedRecordsWritten(input: WriteRequest): ChangedRecord[] {
  const written: Keyed[] = [
    input.Item,
    input.Key,
    ...(input.TransactItems ?? []).flatMap((t) => [t.Put?.Item, t.Update?.Key]),
    ...Object.values(input.RequestItems ?? {}).flatMap((requests) => requests.map((r) => r.PutRequest?.Item)),
  ];
  return written.flatMap((item) => {
    const pk = text(item?.pk);
    const sk = text(item?.sk);
    const found = pk && sk ? followedRecordOfKey({ pk, sk }) : undefined;
    return found ? [found] : [];
  });
}

/**
 * Calls `onChange` after every successful write of a job, product or avatar: on the local stack, the
 * stand-in for the table stream that feeds the live-update pusher on AWS. Reads (whose input has a
 * Key too) and deletes are no change: only the writing commands are looked at.
 */
export function watchFollowedWrites(table: DynamoTable, onChange: (changed: ChangedRecord[]) => void): void {
  table.client.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      if (WRITES.has(context.commandName ?? '')) {
        const changed = followedRecordsWritten(args.input as WriteRequest);
        if (changed.length > 0) onChange(changed);
      }
      return out;
    },
    { step: 'initialize', name: 'watchFollowedWrites' },
  );
}
