/**
 * The whole service on AWS: data, media, the native-modules and face-runtime layers (and the trees the images hold), background
 * workers, the face-check function, the video job pipeline (state machine and its functions; the render
 * function a container image holding those layers' trees), the HTTP API, and the studio on CloudFront
 * in front of it.
 */
import * as path from 'node:path';
import { CfnOutput, Lazy, Stack, type StackProps } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { Api } from './api';
import { DataStore } from './data';
import { FACE_CHECK_HELPER, FaceCheck } from './face-check';
import { FaceRuntimeLayer } from './face-layer';
import { hostStagedTree } from './host-staging';
import { JobPipeline } from './job-pipeline';
import { NativeModulesLayer } from './native-modules-layer';
import type { ImageTree } from './render-image';
import type { LayerTree } from './staged-layer';
import { engineConfigFromContext } from './engine-config';
import { billingConfigFromContext } from './billing-config';
import { renderMemoryFromContext } from './render-memory';
import { concurrencyFromContext } from './concurrency';
import { PROJECT_ROOT } from './service-function';
import { MediaStore } from './media';
import { MediaDelivery } from './media-delivery';
import { Workers } from './workers';
import { Webhooks } from './webhooks';
import { LiveUpdates, UPDATES_ENV } from './live-updates';
import { nameProviderCallbacks } from './provider-callbacks';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { alarmEmailFromContext, Observability } from './observability';
import { monthlyBudgetFromContext } from './cost-budget';
import { PIPELINE_FUNCTION_SIZES } from './function-sizes';
import { StudioHosting } from './studio-hosting';
import { mailFromContext } from './mail';

export interface ReactionStudioStackProps extends StackProps {
  /**
   * Takes the place of each layer tree (ffmpeg, the native modules, the face runtime) before it is
   * staged: the template tests stage a file per tree where `cdk synth` copies about 330 MB.
   */
  standIn?: <T extends LayerTree>(name: ImageTree, tree: T) => T;
}

export class ReactionStudioStack extends Stack {
  readonly data: DataStore;
  readonly media: MediaStore;
  readonly delivery: MediaDelivery;
  readonly workers: Workers;
  /** Looks for a face in a clip's frames, for the videos function and the render function (face-check.ts). */
  readonly faceCheck: FaceCheck;
  readonly webhooks: Webhooks;
  readonly liveUpdates: LiveUpdates;
  readonly jobs: JobPipeline;
  readonly api: Api;
  readonly observability: Observability;
  readonly studio: StudioHosting;

  constructor(scope: Construct, id: string, props: ReactionStudioStackProps = {}) {
    const { standIn, ...stackProps } = props;
    super(scope, id, stackProps);
    const tree = <T extends LayerTree>(name: ImageTree, real: T): T => (standIn ? standIn(name, real) : real);

    this.data = new DataStore(this, 'Data');
    this.media = new MediaStore(this, 'Media');
    this.delivery = new MediaDelivery(this, 'MediaDelivery', { bucket: this.media.bucket });
    const native = new NativeModulesLayer(this, 'NativeModules', tree('native-modules', hostStagedTree('native-modules')));
    const face = new FaceRuntimeLayer(this, 'FaceRuntime', tree('face', hostStagedTree('face')));
    const engines = engineConfigFromContext(this);
    const shared = {
      table: this.data.table,
      bucket: this.media.bucket,
      nativeLayer: native.layer,
      engines,
      connectionKey: this.data.connectionKey,
      mediaLinks: this.delivery,
    };
    // The functions that run ffmpeg (the render function, the demo and sample workers, the products,
    // music and videos API functions) ship as container images holding the same trees as the layers;
    // ffmpeg has no layer, for no zip function may carry it (render-image.ts, function-sizes.ts).
    const imageTrees = { ffmpeg: tree('ffmpeg', hostStagedTree('ffmpeg')), 'espeak-ng': tree('espeak-ng', hostStagedTree('espeak-ng')), 'native-modules': native.tree, face: face.tree };

    // The generate-avatar worker looks for the face in a hosted portrait as an upload is looked at.
    this.workers = new Workers(this, 'Workers', { ...shared, faceLayer: face.layer, imageTrees });
    this.faceCheck = new FaceCheck(this, 'FaceCheck', { ...shared, faceLayer: face.layer });
    this.webhooks = new Webhooks(this, 'Webhooks', shared);
    this.liveUpdates = new LiveUpdates(this, 'LiveUpdates', shared);
    // The pipeline does not depend on the API; the API functions are granted on its state machine.
    const reserved = concurrencyFromContext(this);
    this.jobs = new JobPipeline(this, 'Jobs', {
      ...shared,
      imageTrees,
      renderMemoryMb: renderMemoryFromContext(this),
      renderConcurrency: reserved.render,
      tracing: true,
      helpers: { [FACE_CHECK_HELPER]: this.faceCheck.fn },
    });
    // Mailed links point at the studio, made below: its distribution depends on the HTTP API, not on any function, so no cycle.
    const mailFrom = mailFromContext(this);
    this.api = new Api(this, 'Api', {
      ...shared,
      faceLayer: face.layer,
      imageTrees,
      workers: this.workers.functions,
      helpers: { [FACE_CHECK_HELPER]: this.faceCheck.fn },
      stateMachine: this.jobs.stateMachine,
      mail: mailFrom ? { from: mailFrom, studioUrl: Lazy.string({ produce: () => this.studio.url }) } : undefined,
      billing: billingConfigFromContext(this),
      reservedConcurrency: reserved.api,
    });
    // The accounts function issues the tickets, naming where to connect.
    (this.api.functions.accounts as lambda.Function).addEnvironment(UPDATES_ENV.url, this.liveUpdates.url);
    // A hosted engine's webhook resumes its job through the API: the render function names the address.
    nameProviderCallbacks(this.jobs.functions.render, this.api.httpApi);
    this.observability = new Observability(this, 'Observability', {
      httpApi: this.api.httpApi,
      stateMachine: this.jobs.stateMachine,
      failureQueues: {
        WorkerFailures: this.workers.failedInvocations,
        ExecutionEndedFailures: this.jobs.executionEndedFailures,
        JobStarterFailures: this.jobs.failedStarts,
        WebhookDeliveryFailures: this.webhooks.failedDeliveries,
        WebhookStreamFailures: this.webhooks.failedStreamBatches,
        LiveUpdateStreamFailures: this.liveUpdates.failedStreamBatches,
      },
      alarmEmail: alarmEmailFromContext(this),
      capacity: {
        table: this.data.table,
        render: { fn: this.jobs.functions.render, timeoutS: PIPELINE_FUNCTION_SIZES.render.timeoutS },
        workQueues: { WebhookDeliveries: this.webhooks.queue },
      },
      monthlyBudgetUsd: monthlyBudgetFromContext(this),
    });

    this.studio = new StudioHosting(this, 'Studio', {
      httpApi: this.api.httpApi,
      siteDirectory: path.join(PROJECT_ROOT, 'studio', 'dist'),
      mediaDomain: this.delivery.distribution.distributionDomainName,
      mediaBucket: this.media.bucket,
      logBucket: this.delivery.logs,
      updatesUrl: this.liveUpdates.url,
    });

    new CfnOutput(this, 'StudioUrl', { value: this.studio.url, description: 'The web studio; its API is under /api/v1 on the same origin' });
    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the API (prefix included)' });
    new CfnOutput(this, 'UpdatesUrl', { value: this.liveUpdates.url, description: 'The live-updates WebSocket (tickets from POST /api/v1/updates/tickets name it too)' });
    new CfnOutput(this, 'MediaDomain', {
      value: this.delivery.distribution.distributionDomainName,
      description: 'The CloudFront distribution serving signed media links',
    });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'BucketName', { value: this.media.bucket.bucketName });
    new CfnOutput(this, 'ConnectionKeyArn', {
      value: this.data.connectionKey.keyArn,
      description: 'The KMS key sealing social-provider credentials (the admin CLI seals with it)',
    });
    new CfnOutput(this, 'JobStateMachineArn', {
      value: this.jobs.stateMachine.stateMachineArn,
      description: 'The video job state machine (one execution per job, named job-<account>-<job>)',
    });
  }
}
