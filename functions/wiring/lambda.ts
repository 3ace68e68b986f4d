/**
 * The Lambda runtime's wiring: the one place that decides which adapter serves each port on AWS. It is
 * built on a function's first invocation and reused while the execution environment lives.
 */
import type { Dependencies } from '#ports/dependencies';
import { stepFunctionsJobRunner } from '#adapters/stepfunctions/job-runner';
import { lambdaBackgroundTasks } from '#adapters/lambda/background-tasks';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { createDynamoTable, createS3Client } from '#adapters/aws-clients';
import { settingsFromEnv, type Settings } from '#functions/config';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { DynamoLibraryUsage } from '#adapters/dynamodb/library';
import { enginesNotBundled, referencesNotBundled, mediaNotBundled } from './not-bundled';

let built: Dependencies | undefined;

export function lambdaDependencies(): Dependencies {
  // The one read of the function's environment.
  built ??= awsDependencies(settingsFromEnv(process.env));
  return built;
}

function awsDependencies(settings: Settings): Dependencies {
  const table = createDynamoTable(settings);
  return {
    jobRunner: stepFunctionsJobRunner(),
    tasks: lambdaBackgroundTasks(),
    blobs: new S3BlobStore(createS3Client(settings), settings.bucketName),
    // Heavy: the handler modules of the functions that generate add them (not-bundled.ts).
    engines: enginesNotBundled,
    references: referencesNotBundled,
    media: mediaNotBundled,
    jobs: new DynamoJobStore(table),
    ledger: new DynamoAllowanceLedger(table),
    videos: new DynamoVideoLibrary(table),
    library: new DynamoLibraryUsage(table),
    now: () => new Date(),
  };
}
