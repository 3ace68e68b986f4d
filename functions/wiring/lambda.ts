/**
 * The Lambda runtime's wiring: the one place that decides which adapter serves each port on AWS. Each
 * handler module builds its function's ports with `lambdaPorts`, from the clients and settings here
 * and the adapters it imports itself; its handler's type says which ports those must be, so one left
 * out is a compile error, and a function bundles only the adapters its module names. The ports are
 * built on the first invocation and reused while the execution environment lives.
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
import type { DynamoTable } from '#adapters/dynamodb/table';
import { buildStores, type StoreClasses, type StoresOf } from './table-stores';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { powertoolsMetrics } from '#adapters/metrics/powertools-metrics';

let settings: Settings | undefined;

/** The function's settings: the one read of its environment. */
export function lambdaSettings(): Settings {
  settings ??= settingsFromEnv(environment());
  return settings;
}

/** The ports every function gets: cheap clients and the settings' values. */
type CommonPorts = Pick<
  Ports,
  'jobRunner' | 'tasks' | 'blobs' | 'sounds' | 'studioUrl' | 'updatesUrl' | 'providerCallbackUrl' | 'apiRequestsPerMinute' | 'previewWaitS' | 'inlineUploadMaxBytes' | 'now' | 'metrics'
>;

/** What a handler module builds its ports from. */
export interface LambdaParts {
  settings: Settings;
  common: CommonPorts;
  /** One instance of each named table store (table-stores.ts): all of the table's code the function bundles. */
  stores<C extends StoreClasses>(classes: C): StoresOf<C>;
  /** The table, made once: the pipeline and the workers build every store over it (dynamoStores), their bundles carrying them all. */
  table(): DynamoTable;
}

/**
 * A function's ports, as `build` makes them from the common ports and the table on the first
 * invocation. With `instrument`, each AWS SDK client is passed through it as it is made (X-Ray capture
 * where it pays).
 */
export function lambdaPorts<P>(build: (parts: LambdaParts) => P, instrument?: ClientInstrument): PortSource<P> {
  let built: P | undefined;
  return () => {
    if (built === undefined) {
      const current = lambdaSettings();
      let table: DynamoTable | undefined;
      const tableOnce = () => (table ??= createDynamoTable(current, instrument));
      built = build({
        settings: current,
        common: commonPorts(current, instrument),
        stores: (classes) => buildStores(tableOnce(), classes),
        table: tableOnce,
      });
    }
    return built;
  };
}

function commonPorts(settings: Settings, instrument?: ClientInstrument): CommonPorts {
  const blobs = new S3BlobStore(createS3Client(settings, instrument), settings.bucketName, cdnLinks(settings));
  return {
    jobRunner: stepFunctionsJobRunner(),
    tasks: lambdaBackgroundTasks(),
    blobs,
    // Renders only where ffmpeg is (the job-render function); elsewhere it finds the stored files.
    sounds: new BlobSoundBank(blobs),
    studioUrl: () => {
      if (!settings.studioUrl) throw new Error('environment variable STUDIO_URL is not set: only the functions that mail get it, with MAIL_FROM');
      return settings.studioUrl;
    },
    updatesUrl: () => {
      if (!settings.updatesUrl) throw new Error('environment variable UPDATES_URL is not set: only the function that issues live-update tickets gets it');
      return settings.updatesUrl;
    },
    providerCallbackUrl: () => settings.providerCallbackUrl,
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
