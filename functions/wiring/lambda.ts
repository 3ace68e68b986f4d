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
import { dynamoStores } from '#adapters/dynamodb/stores';
import {
  enginesNotBundled,
  referencesNotBundled,
  mediaNotBundled,
  demoMediaNotBundled,
  avatarImagesNotBundled,
  socialNotBundled,
  cipherNotBundled,
} from './not-bundled';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';

let settings: Settings | undefined;
let built: Dependencies | undefined;

/** The function's settings: the one read of its environment. */
export function lambdaSettings(): Settings {
  settings ??= settingsFromEnv(process.env);
  return settings;
}

export function lambdaDependencies(): Dependencies {
  built ??= awsDependencies(lambdaSettings());
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
    demoMedia: demoMediaNotBundled,
    avatarImages: avatarImagesNotBundled,
    ...dynamoStores(table),
    // Only the social and analytics functions talk to the providers (social-on-aws.ts).
    social: socialNotBundled,
    cipher: cipherNotBundled,
    apiRequestsPerMinute: settings.rateLimitPerMinute,
    // The state machine's AwaitDecision waits this long too.
    previewWaitS: settings.previewWaitS ?? PREVIEW_WAIT_MAX_S,
    now: () => new Date(),
  };
}
