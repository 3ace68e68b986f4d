/**
 * The Lambda runtime's wiring: the one place that decides which adapter serves each port on AWS. It is
 * built on a function's first invocation and reused while the execution environment lives.
 */
import type { Ports, PortSource } from '#ports/ports';
import { stepFunctionsJobRunner } from '#adapters/stepfunctions/job-runner';
import { lambdaBackgroundTasks } from '#adapters/lambda/background-tasks';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { BlobSoundBank } from '#adapters/sounds/blob-sound-bank';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { CloudFrontSignedLinks, secretText, type SignedLinks } from '#adapters/cloudfront/signed-links';
import { createDynamoTable, createS3Client, type ClientInstrument } from '#adapters/aws-clients';
import { environment, settingsFromEnv, type Settings } from '#functions/config';
import { dynamoStores } from '#adapters/dynamodb/stores';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { buildStores, onlyStores, storesNotBundled, type StoreClasses } from './table-stores';
import {
  enginesNotBundled,
  referencesNotBundled,
  mediaNotBundled,
  demoMediaNotBundled,
  avatarImagesNotBundled,
  facesNotBundled,
  captionImagesNotBundled,
  socialNotBundled,
  cipherNotBundled,
  remoteFilesNotBundled,
  webhookReceiversNotBundled,
  billingNotBundled,
  musicMediaNotBundled,
  composerNotBundled,
  sampleDemoNotBundled,
  stockAvatarsNotBundled,
  mailerNotBundled,
} from './not-bundled';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { powertoolsMetrics } from '#adapters/metrics/powertools-metrics';

let settings: Settings | undefined;
let table: DynamoTable | undefined;
let base: Ports | undefined;
let built: Ports | undefined;

/** The function's settings: the one read of its environment. */
export function lambdaSettings(): Settings {
  settings ??= settingsFromEnv(environment());
  return settings;
}

function lambdaTable(): DynamoTable {
  table ??= createDynamoTable(lambdaSettings());
  return table;
}

/** Every port, every store of the table: the pipeline, the workers and the sweeper. */
export function lambdaDependencies(): Ports {
  built ??= { ...lambdaBase(), ...dynamoStores(lambdaTable()) };
  return built;
}

/** Every port and store, each AWS SDK client passed through `instrument` as it is made (X-Ray capture where it pays). */
export function instrumentedLambdaDependencies(instrument: ClientInstrument): PortSource {
  let instrumented: Ports | undefined;
  return () => {
    instrumented ??= { ...awsDependencies(lambdaSettings(), instrument), ...dynamoStores(createDynamoTable(lambdaSettings(), instrument)) };
    return instrumented;
  };
}

/** An API function: the stores its handler module names (apiStores), nothing more bundled. */
export function lambdaApiDependencies(stores: StoreClasses): PortSource {
  return onlyStores(() => ({ ...lambdaBase(), ...buildStores(lambdaTable(), stores) }) as Ports, stores);
}

function lambdaBase(): Ports {
  base ??= awsDependencies(lambdaSettings());
  return base;
}

/** The ports besides the table's stores, which each function adds as it needs them. */
function awsDependencies(settings: Settings, instrument?: ClientInstrument): Ports {
  const blobs = new S3BlobStore(createS3Client(settings, instrument), settings.bucketName, cdnLinks(settings));
  return {
    jobRunner: stepFunctionsJobRunner(),
    tasks: lambdaBackgroundTasks(),
    blobs,
    // Renders only where ffmpeg is (the job-render function); elsewhere it finds the stored files.
    sounds: new BlobSoundBank(blobs),
    // Only the functions that read them: the products function and the sample-demo worker the sample
    // clip; the avatars, videos and pipeline functions the stock avatars (the rig code is 14 KB).
    sampleDemo: sampleDemoNotBundled,
    stockAvatars: stockAvatarsNotBundled,
    // Heavy: the handler modules of the functions that generate add them (not-bundled.ts).
    engines: enginesNotBundled,
    references: referencesNotBundled,
    remoteFiles: remoteFilesNotBundled,
    media: mediaNotBundled,
    demoMedia: demoMediaNotBundled,
    avatarImages: avatarImagesNotBundled,
    faces: facesNotBundled,
    captionImages: captionImagesNotBundled,
    musicMedia: musicMediaNotBundled,
    composer: composerNotBundled,
    ...(storesNotBundled() as Pick<Ports, keyof ReturnType<typeof dynamoStores>>),
    // Only the social and analytics functions talk to the providers (social-on-aws.ts).
    social: socialNotBundled,
    cipher: cipherNotBundled,
    // Only the billing function talks to the payment provider (billing-on-aws.ts).
    billing: billingNotBundled,
    // Only the webhooks function and the delivery worker reach receivers.
    webhookReceivers: webhookReceiversNotBundled,
    // Only the functions that mail add the sender (mail-on-aws.ts).
    mailer: mailerNotBundled,
    studioUrl: () => {
      if (!settings.studioUrl) throw new Error('environment variable STUDIO_URL is not set: only the functions that mail get it, with MAIL_FROM');
      return settings.studioUrl;
    },
    updatesUrl: () => {
      if (!settings.updatesUrl) throw new Error('environment variable UPDATES_URL is not set: only the function that issues live-update tickets gets it');
      return settings.updatesUrl;
    },
    apiRequestsPerMinute: settings.rateLimitPerMinute,
    // The state machine's AwaitDecision waits this long too.
    previewWaitS: settings.previewWaitS ?? PREVIEW_WAIT_MAX_S,
    // Set by the stack for the API functions: a larger multipart body goes through POST /uploads.
    inlineUploadMaxBytes: settings.inlineUploadMaxBytes,
    now: () => new Date(),
    metrics: powertoolsMetrics(),
  };
}

/** Playback links through the media distribution when the stack configured one (config.ts mediaCdn). */
function cdnLinks(settings: Settings): SignedLinks | undefined {
  const cdn = settings.mediaCdn;
  if (!cdn) return undefined;
  const secrets = new SecretsManagerClient({ region: settings.region });
  return new CloudFrontSignedLinks({ domain: cdn.domain, keyPairId: cdn.keyPairId, privateKey: secretText(secrets, cdn.privateKeySecret) });
}
