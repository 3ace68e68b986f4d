/**
 * The local runtime's wiring: the adapters the local stack serves each port with. It builds every port
 * in the registry, which satisfies any handler's type, so each handler module's createHandler takes it. Jobs run on the
 * in-process ASL runner and background work on in-process tasks instead of Step Functions and Lambda.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Ports } from '#ports/ports';
import type { BackgroundTasks } from '#ports/background-tasks';
import type { JobRunner } from '#ports/job-runner';
import type { Billing } from '#ports/billing';
import type { Settings } from '#functions/config';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { BlobSoundBank } from '#adapters/sounds/blob-sound-bank';
import { BlobSampleDemo } from '#adapters/samples/blob-sample-demo';
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';
import { renderAvatarPng, renderSampleDemo } from '#render';
import { S3BlobStore } from '#adapters/s3/blob-store';
import { createDynamoTable, createS3Client } from '#adapters/aws-clients';
import { configuredEngines } from '#adapters/engines/configured';
import { FfmpegDemoMedia } from '#adapters/media/ffmpeg-demo-media';
import { SharpAvatarImages } from '#adapters/media/sharp-avatar-images';
import { humanClipFaces } from '#adapters/media/human-clip-faces';
import { humanImageFaces } from '#adapters/media/human-image-faces';
import { SkiaCaptionImages } from '#adapters/media/skia-caption-images';
import { requestReferenceResolver } from '#adapters/reference/reference-resolver';
import { createLinkedFileDownloader } from '#adapters/reference/direct-media-resolver';
import { FfprobeMediaInspector } from '#adapters/media/ffprobe-media-inspector';
import { FfmpegMusicMedia } from '#adapters/media/ffmpeg-music-media';
import { FfmpegVideoComposer } from '#adapters/media/ffmpeg-video-composer';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { createSocialProviders, type SocialBackoff } from '#adapters/social/registry';
import { localCredentialCipher } from '#adapters/crypto/credential-cipher';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { loggedMetrics } from '#adapters/metrics/logged-metrics';
import { HttpWebhookReceivers } from '#adapters/webhooks/http-receivers';
import type { LocalOutbox } from '#adapters/mail/local-outbox';
import { logger } from '#functions/logger';

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
  /** Provider credentials are sealed with the key file under it (KMS on AWS); the admin CLI uses the same file. */
  dataDir: string;
  /** Shorter waits between a provider's retries: tests of outages, which would otherwise wait seconds per call. */
  socialBackoff?: SocialBackoff;
  /** Where mails go: files in the data dir, which the server lists at GET /local/outbox. */
  outbox: LocalOutbox;
  /** The server's own address once it listens: mailed links point at its studio. */
  studioUrl: () => string;
  /** The server's WebSocket address for live updates, once it listens. */
  updatesUrl: () => string;
  /** What paid plans go through (./billing.ts). */
  billing: Billing;
}

export function localDependencies(parts: LocalParts): Ports {
  const { table, s3, settings } = parts.clients;
  const blobs = new S3BlobStore(s3, settings.bucketName);
  return {
    jobRunner: parts.jobRunner,
    tasks: parts.tasks,
    blobs,
    engines: configuredEngines({ blobs }),
    sounds: new BlobSoundBank(blobs),
    sampleDemo: new BlobSampleDemo(blobs, { render: renderSampleDemo }),
    stockAvatars: new BlobStockAvatars(blobs, renderAvatarPng),
    // A linked reference is fetched at the door, within a request's time as on AWS; the pipeline fetches
    // only the link of a job written before that, with the same limits.
    references: requestReferenceResolver(),
    remoteFiles: createLinkedFileDownloader(),
    demoMedia: new FfmpegDemoMedia(),
    avatarImages: new SharpAvatarImages(),
    captionImages: new SkiaCaptionImages(),
    composer: new FfmpegVideoComposer(),
    media: new FfprobeMediaInspector(),
    faces: { ...humanImageFaces, ...humanClipFaces },
    musicMedia: new FfmpegMusicMedia(),
    ...dynamoStores(table),
    social: createSocialProviders({ baseUrls: settings.socialBaseUrls, sandboxUrls: settings.socialSandboxUrls, backoff: parts.socialBackoff }),
    cipher: localCredentialCipher(parts.dataDir),
    billing: parts.billing,
    // Receivers on this machine (a developer's test server) are allowed here only.
    webhookReceivers: new HttpWebhookReceivers({ allowLoopback: true }),
    mailer: parts.outbox,
    studioUrl: parts.studioUrl,
    updatesUrl: parts.updatesUrl,
    // Unset unless configured: fal cannot call back to a loopback address (tests point it at the fal double's stack).
    providerCallbackUrl: () => settings.providerCallbackUrl,
    apiRequestsPerMinute: settings.rateLimitPerMinute,
    previewWaitS: settings.previewWaitS ?? PREVIEW_WAIT_MAX_S,
    now: () => new Date(),
    metrics: loggedMetrics(logger),
  };
}
