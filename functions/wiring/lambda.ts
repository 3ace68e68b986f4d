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
import { DynamoAccountStore } from '#adapters/dynamodb/accounts';
import { DynamoApiKeyStore } from '#adapters/dynamodb/api-keys';
import { DynamoRateLimiter } from '#adapters/dynamodb/rate-limiter';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { DynamoLibraryUsage } from '#adapters/dynamodb/library';
import { DynamoProductStore } from '#adapters/dynamodb/products';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { DynamoReactionStore } from '#adapters/dynamodb/reactions';
import { DynamoPostStore } from '#adapters/dynamodb/posts';
import { DynamoConnectionStore } from '#adapters/dynamodb/connections';
import { DynamoAnalyticsCache } from '#adapters/dynamodb/analytics-cache';
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
    products: new DynamoProductStore(table),
    avatars: new DynamoAvatarStore(table),
    reactions: new DynamoReactionStore(table),
    jobs: new DynamoJobStore(table),
    ledger: new DynamoAllowanceLedger(table),
    videos: new DynamoVideoLibrary(table),
    library: new DynamoLibraryUsage(table),
    accounts: new DynamoAccountStore(table),
    apiKeys: new DynamoApiKeyStore(table),
    rateLimits: new DynamoRateLimiter(table),
    social: createSocialProviders({ baseUrls: settings.socialBaseUrls }),
    cipher: kmsCredentialCipher({ keyId: settings.connectionKeyId, region: settings.region }),
    posts: new DynamoPostStore(table),
    connections: new DynamoConnectionStore(table),
    analytics: new DynamoAnalyticsCache(table),
    apiRequestsPerMinute: settings.rateLimitPerMinute,
    // The state machine's AwaitDecision waits this long too.
    previewWaitS: settings.previewWaitS ?? PREVIEW_WAIT_MAX_S,
    now: () => new Date(),
  };
}
