/**
 * One Lambda function built from its declared needs (functions/routes.ts `FunctionNeeds`): the
 * bundle, the layers, the environment and exactly the grants the declaration asks for. A function
 * whose size says packaging `image` (function-sizes.ts) ships as a container image instead (render-image.ts), with the same
 * settings, environment and grants (functionBase, grantNeeds).
 */
import * as path from 'node:path';
import { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { FunctionNeeds } from '#functions/routes';
import type { FunctionSize } from './function-sizes';
import { TABLE_SCHEMA } from '#lib/table-schema';
import { lambdaBundlingProps } from './bundling';
import { FFMPEG_ENV } from './ffmpeg-layer';
import { needsFaceRuntime } from './face-layer';
import { applyEngineChoices, applyEngineConfig, type EngineConfig } from './engine-config';
import { applyBillingConfig, type BillingConfig } from './billing-config';
import { LAMBDA_RUNTIME } from './runtime';
import { acknowledge, arnToken } from './nag';
import { mediaAreaPattern, type MediaArea } from '#domain/media-areas';
import { grantMail, type MailSetup } from './mail';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');
const SERVICE_NAME = 'reaction-studio';

export type ServiceFunctionNeeds = FunctionNeeds;

export interface ServiceFunctionProps {
  needs: ServiceFunctionNeeds;
  /** Its memory, timeout, /tmp and packaging, from the one table (function-sizes.ts). */
  size: FunctionSize;
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  nativeLayer: lambda.ILayerVersion;
  /** The face runtime (face-layer.ts); required when `needs.faces` asks for it. */
  faceLayer?: lambda.ILayerVersion;
  engines: EngineConfig;
  /** The functions this one may start, by worker name; must hold every `needs.invokes` target. */
  workers?: Readonly<Record<string, lambda.IFunction>>;
  /** The functions this one calls synchronously, by name; must hold every `needs.calls` target (face-check.ts). */
  helpers?: Readonly<Record<string, lambda.IFunction>>;
  /** The job state machine; required when `needs.jobs` asks for anything. */
  stateMachine?: sfn.IStateMachine;
  /** The KMS key sealing provider credentials; required when `needs.connectionKey` asks for it. */
  connectionKey?: kms.IKey;
  /** Signed playback links (media-delivery.ts): every function that reaches the bucket may hand them out. */
  mediaLinks?: { grantSigning(fn: lambda.Function): void };
  /** The deployment's mail sender and studio address (mail.ts), for the functions whose needs say `mail`; unset: no mail. */
  mail?: MailSetup;
  /** The payment provider's settings, for functions whose `needs.billing` asks (billing-config.ts). */
  billing?: BillingConfig;
}

/** The environment variable holding the job state machine's ARN, for functions that start executions. */
const JOB_STATE_MACHINE_ENV = 'JOB_STATE_MACHINE_ARN';

/** The environment variable holding the connection key's ARN (the credential cipher's KMS mode). */
const CONNECTION_KEY_ENV = 'CONNECTION_KEY_ID';

/** KMS actions per `connectionKey` need: sealing makes a data key, opening unwraps one. */
const CONNECTION_KEY_ACTIONS = {
  'encrypt-decrypt': ['kms:GenerateDataKey', 'kms:Decrypt'],
  decrypt: ['kms:Decrypt'],
} as const;

/**
 * Every use must carry exactly the encryption context the cipher sets ({account_id, provider}), so the
 * grant cannot serve as a general-purpose encrypt or decrypt oracle.
 */
/**
 * The table actions the stores use (functions/adapters/dynamodb), named instead of CDK's grant sets,
 * which add streams and describe calls nothing here makes. Transactions are authorised per item action.
 */
const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/** The media actions the blob store uses (functions/adapters/s3): reads and copies' sources, writes, deletes. */
const MEDIA_READ_ACTIONS = ['s3:GetObject'];
const MEDIA_WRITE_ACTIONS = ['s3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'];
const MEDIA_TAGGING_ACTIONS = ['s3:PutObjectTagging'];

const CONNECTION_KEY_CONDITIONS = {
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['account_id', 'provider'] },
  Null: { 'kms:EncryptionContext:account_id': 'false', 'kms:EncryptionContext:provider': 'false' },
};

/**
 * What a function of either packaging gets from its needs: its own log group and role, the settings
 * and environment, checked before anything is bundled. A zip function (ServiceFunction) adds its bundle
 * and layers, an image function (render-image.ts) its image; `grantNeeds` then adds the grants.
 */
export function functionBase(scope: Construct, props: ServiceFunctionProps) {
  const { needs, size, table, bucket } = props;
  if ((needs.jobs ?? []).length > 0 && !props.stateMachine) throw new Error(`${needs.entry} needs the job state machine`);
  if (needs.connectionKey && !props.connectionKey) throw new Error(`${needs.entry} needs the connection key`);

  const logGroup = new logs.LogGroup(scope, 'Logs', {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  // Its own role instead of the managed basic-execution policy, which may write to every log group.
  const role = new iam.Role(scope, 'Role', {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `${needs.entry}: ${needs.description}`.slice(0, 1000),
  });
  logGroup.grantWrite(role);

  return {
    description: needs.description,
    role,
    // Each invocation is a segment in X-Ray; the state machine's traces link to them.
    tracing: lambda.Tracing.ACTIVE,
    // The ffmpeg/ffprobe binaries are x86-64; every function uses the same architecture so any of
    // them can take the layer.
    architecture: lambda.Architecture.X86_64,
    memorySize: size.memoryMb,
    timeout: Duration.seconds(size.timeoutS),
    ...(size.ephemeralStorageMb ? { ephemeralStorageSize: Size.mebibytes(size.ephemeralStorageMb) } : {}),
    ...(size.reservedConcurrency ? { reservedConcurrentExecutions: size.reservedConcurrency } : {}),
    // Only a function whose currentVersion is read publishes versions (the pipeline's, for its `live`
    // alias); a version a deploy replaces is kept, so the alias can be moved back to it.
    currentVersionOptions: { removalPolicy: RemovalPolicy.RETAIN },
    logGroup,
    environment: {
      // Names grant nothing; the grants decide what the function may touch.
      TABLE_NAME: table.tableName,
      BUCKET_NAME: bucket.bucketName,
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      ...(needs.ffmpeg ? FFMPEG_ENV : {}),
    } as Record<string, string>,
  } satisfies lambda.FunctionOptions;
}

/** Exactly the grants (and the environment naming what they reach) that `props.needs` asks for. */
export function grantNeeds(scope: Construct, fn: lambda.Function, props: ServiceFunctionProps): void {
  const { needs, table, bucket } = props;
  const jobs = needs.jobs ?? [];
  if (needs.table !== 'none') {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [...TABLE_READ_ACTIONS, ...(needs.table === 'readwrite' ? TABLE_WRITE_ACTIONS : [])],
        resources: [table.tableArn, ...TABLE_SCHEMA.globalIndexes.map((index) => `${table.tableArn}/index/${index.name}`)],
      }),
    );
  }
  grantMedia(scope, fn, needs, bucket);
  if (needs.bucket !== 'none') props.mediaLinks?.grantSigning(fn);

  applyEngineChoices(fn, needs.engineChoices ?? [], props.engines);
  applyEngineConfig(fn, needs.engines ?? [], props.engines);
  if (needs.billing) applyBillingConfig(fn, props.billing ?? {});

  // Started in the background or called and waited for: either way its name in `env`, and leave to invoke it alone.
  const targets = [
    ...(needs.invokes ?? []).map(({ worker, env }) => ({ name: worker, env, fn: props.workers?.[worker], kind: 'worker' })),
    ...(needs.calls ?? []).map(({ helper, env }) => ({ name: helper, env, fn: props.helpers?.[helper], kind: 'helper function' })),
  ];
  for (const { name, env, fn: target, kind } of targets) {
    if (!target) throw new Error(`${needs.entry} invokes unknown ${kind} "${name}"`);
    fn.addEnvironment(env, target.functionName);
    target.grantInvoke(fn);
    acknowledge(scope, { [`AwsSolutions-IAM5[Resource::${arnToken(target)}:*]`]: `may invoke ${name} and its versions, nothing else` });
  }

  const { stateMachine } = props;
  if (stateMachine && jobs.includes('start')) {
    fn.addEnvironment(JOB_STATE_MACHINE_ENV, stateMachine.stateMachineArn);
    stateMachine.grantStartExecution(fn);
  }
  // Task tokens are authorised against the state machine whose execution issued them.
  if (stateMachine && jobs.includes('decide')) stateMachine.grantTaskResponse(fn);

  acknowledge(scope, { 'AwsSolutions-IAM5[Resource::*]': "X-Ray's PutTraceSegments and PutTelemetryRecords take no resource" });

  if (needs.mail && props.mail) grantMail(fn, props.mail);

  const { connectionKey } = props;
  if (connectionKey && needs.connectionKey) {
    fn.addEnvironment(CONNECTION_KEY_ENV, connectionKey.keyArn);
    // An identity-policy grant: the key policy trusts the account, and a condition is possible here.
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: [...CONNECTION_KEY_ACTIONS[needs.connectionKey]],
        resources: [connectionKey.keyArn],
        conditions: CONNECTION_KEY_CONDITIONS,
      }),
    );
  }
}

/** Reads anywhere in the bucket (and lists it); writes and deletes only in the areas the function declares. */
function grantMedia(scope: Construct, fn: lambda.Function, needs: ServiceFunctionNeeds, bucket: s3.IBucket): void {
  if (needs.bucket === 'none') return;
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: MEDIA_READ_ACTIONS, resources: [bucket.arnForObjects('*')] }));
  acknowledge(scope, {
    [`AwsSolutions-IAM5[Resource::${arnToken(bucket)}/*]`]: 'reads media of any account: the account-scoped records decide which keys a request reaches',
  });
  const areas: readonly MediaArea[] = needs.bucket === 'readwrite' ? (needs.writes ?? []) : [];
  if (needs.bucket === 'readwrite' && areas.length === 0) throw new Error(`${needs.entry} writes media but declares no area (writes)`);
  if (areas.length === 0) return;
  const patterns = areas.map(mediaAreaPattern);
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: MEDIA_WRITE_ACTIONS, resources: patterns.map((p) => bucket.arnForObjects(p)) }));
  // A finished video's files are written with their retention tag (domain/video-retention.ts), and S3
  // authorises a PUT or COPY that sets tags as PutObjectTagging too: the videos area alone gets it.
  if (areas.includes('videos')) {
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: MEDIA_TAGGING_ACTIONS, resources: [bucket.arnForObjects(mediaAreaPattern('videos'))] }));
  }
  acknowledge(
    scope,
    Object.fromEntries(
      patterns.map((p) => [
        `AwsSolutions-IAM5[Resource::${arnToken(bucket)}/${p}]`,
        'writes only this area of the bucket; account and record ids are part of every key in it',
      ]),
    ),
  );
}

/** A zip function: its esbuild bundle, with the layers its needs name (native modules, face runtime; never ffmpeg). */
export class ServiceFunction extends Construct {
  readonly fn: nodejs.NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { needs } = props;
    if (props.size.packaging !== 'zip') throw new Error(`${needs.entry} ships as a container image (render-image.ts), not as a zip`);
    // The face runtime ships only in the render image (render-image.ts); no zip function has it.
    if (needs.ffmpeg) throw new Error(`${needs.entry} runs ffmpeg, which only a container image carries (packaging 'image' in function-sizes.ts)`);
    if (needsFaceRuntime(needs)) throw new Error(`${needs.entry} needs the face runtime, which only a container image carries (packaging 'image' in function-sizes.ts)`);
    if (needs.faces && !props.faceLayer) throw new Error(`${needs.entry} looks for faces in uploads but was given no face-runtime layer (faceLayer)`);
    const base = functionBase(this, props);

    this.fn = new nodejs.NodejsFunction(this, 'Function', {
      ...base,
      entry: path.join(PROJECT_ROOT, needs.entry),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      runtime: LAMBDA_RUNTIME,
      bundling: lambdaBundlingProps({ native: needs.native, absent: needs.absent }),
      layers: [...(needs.native ? [props.nativeLayer] : []), ...(needs.faces && props.faceLayer ? [props.faceLayer] : [])],
    });
    grantNeeds(this, this.fn, props);
  }
}

/** `normalise-demo` -> `NormaliseDemo`, for readable construct and logical ids. */
export function constructId(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}
