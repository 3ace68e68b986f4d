/**
 * The table's stream as the job starter reads it (KEYS_ONLY records, lib/cloud/job-pipeline.ts): which
 * records name a job, by the table's own key design. A record that is not a job's insert, or is not
 * shaped as DynamoDB Streams sends it, names none.
 */
import * as z from 'zod/mini';
import { keys } from './keys';

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

/** The inserted jobs an event's records name, in order; anything else is left out. */
export function insertedJobsOf(event: unknown): StreamedJob[] {
  const records = z.object({ Records: z.array(z.unknown()) }).safeParse(event);
  if (!records.success) return [];
  const jobs: StreamedJob[] = [];
  for (const raw of records.data.Records) {
    const record = streamRecord.safeParse(raw);
    if (!record.success || record.data.eventName !== 'INSERT') continue;
    const { SequenceNumber, Keys } = record.data.dynamodb;
    const job = keys.jobOfKey({ pk: Keys.pk.S, sk: Keys.sk.S });
    if (job) jobs.push({ sequenceNumber: SequenceNumber, job });
  }
  return jobs;
}
