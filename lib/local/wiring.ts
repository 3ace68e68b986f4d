/**
 * The local runtime's wiring: the adapters the local stack serves each port with. Jobs run on the
 * in-process ASL runner and background work on in-process tasks instead of Step Functions and Lambda.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Dependencies } from '#ports/dependencies';
import type { BackgroundTasks } from '#ports/background-tasks';
import type { JobRunner } from '#ports/job-runner';
import type { Settings } from '#functions/config';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { createDynamoTable, createS3Client } from '#adapters/aws-clients';
import { configuredEngines } from '#adapters/engines/configured';
import { referenceResolver } from '#adapters/reference/reference-resolver';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { DynamoLibraryUsage } from '#adapters/dynamodb/library';
import { FfprobeMediaInspector } from '#adapters/media/ffprobe-media-inspector';

/** The SDK clients of one local stack, made from its Settings; the stack destroys them when it stops. */
export interface LocalClients {
  settings: Settings;
  table: DynamoTable;
  s3: S3Client;
  destroy(): void;
}

export function localClients(settings: Settings): LocalClients {
  const table = createDynamoTable(settings);
  const s3 = createS3Client(settings);
  return {
    settings,
    table,
    s3,
    destroy: () => {
      table.client.destroy();
      s3.destroy();
    },
  };
}

export interface LocalParts {
  jobRunner: JobRunner;
  tasks: BackgroundTasks;
  clients: LocalClients;
}

export function localDependencies(parts: LocalParts): Dependencies {
  const { table, s3, settings } = parts.clients;
  return {
    jobRunner: parts.jobRunner,
    tasks: parts.tasks,
    blobs: new S3BlobStore(s3, settings.bucketName),
    engines: configuredEngines(),
    references: referenceResolver(),
    jobs: new DynamoJobStore(table),
    ledger: new DynamoAllowanceLedger(table),
    videos: new DynamoVideoLibrary(table),
    library: new DynamoLibraryUsage(table),
    media: new FfprobeMediaInspector(),
    now: () => new Date(),
  };
}
