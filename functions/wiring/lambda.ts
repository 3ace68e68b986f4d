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
import { createSocialProviders } from '#adapters/social/registry';
import { kmsCredentialCipher } from '#adapters/crypto/credential-cipher';
import { enginesNotBundled, referencesNotBundled, mediaNotBundled, demoMediaNotBundled, avatarImagesNotBundled } from './not-bundled';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';

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
    demoMedia: demoMediaNotBundled,
    avatarImages: avatarImagesNotBundled,
    ...dynamoStores(table),
    social: createSocialProviders({ baseUrls: settings.socialBaseUrls }),
    cipher: kmsCredentialCipher({ keyId: settings.connectionKeyId, region: settings.region }),
    apiRequestsPerMinute: settings.rateLimitPerMinute,
    // The state machine's AwaitDecision waits this long too.
    previewWaitS: settings.previewWaitS ?? PREVIEW_WAIT_MAX_S,
    now: () => new Date(),
  };
}
