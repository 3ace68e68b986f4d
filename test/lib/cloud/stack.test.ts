/**
 * The synthesised CloudFormation template, read as the specification of what `cdk deploy` creates.
 * The stack is synthesised once per run for every template suite (test/support/cdk-template.ts).
 */
import { DEFAULT_ACTIVE_ACCOUNTS, stageThrottle } from '#cloud/stage-throttle';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { PIPELINE_FUNCTIONS, type PipelineFunction } from '#pipeline/steps';
import { HANDLER_GROUPS, ROUTES, routeKey, type FunctionNeeds, type HandlerGroup } from '#functions/routes';
import { WORKERS, type WorkerName } from '#cloud/workers';
import { mediaAreaPattern } from '#domain/media-areas';
import { PLAN_NAMES, planOf } from '#domain/plans';
import { RETENTION_TAG } from '#domain/video-retention';
import { actionsOf, referencedIds, resourcesOf, resourcesOfType, roleStatements, synthesisedStack, type Json, type Statement } from '#test-support/cdk-template';
import { standInFor } from '#test-support/layer-trees';
import { API_FUNCTION_SIZES, FACE_CHECK_FUNCTION_SIZE, PIPELINE_FUNCTION_SIZES, WORKER_FUNCTION_SIZES } from '#cloud/function-sizes';
import { FACE_CHECK_FUNCTION } from '#cloud/face-check';
import { FACE_CHECK_FUNCTION_ENV } from '#adapters/lambda/face-check-protocol';
import { PROVIDER_CALLBACK_ENV } from '#cloud/provider-callbacks';

const GROUPS = Object.keys(HANDLER_GROUPS) as HandlerGroup[];
const PIPELINE = Object.keys(PIPELINE_FUNCTIONS) as PipelineFunction[];

const synthesis = synthesisedStack();
const { ids } = synthesis;

// ---- helpers: read the template the way a reviewer would ----

const ofType = (type: string) => resourcesOfType(synthesis.resources, type);
/** The HTTP API's routes, integrations and stages (the live-updates WebSocket API has its own: live-updates.test.ts). */
const ofHttpApi = (type: string) => ofType(type).filter(([, r]) => referencedIds(r.Properties.ApiId).includes(ids.api.httpApi));

const mcpFunctionId = () => ids.api.mcp;
const groupFunctionId = (group: HandlerGroup) => ids.api.functions[group];
const workerFunctionId = (worker: WorkerName) => ids.workers.functions[worker];
const pipelineFunctionId = (name: PipelineFunction) => ids.jobs.functions[name];
const faceCheckFunctionId = () => ids.faceCheck.function;

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

function functionProps(id: string): Json {
  const fn = synthesis.resources[id];
  expect(fn?.Type).toBe('AWS::Lambda::Function');
  return fn!.Properties;
}

const statementsOf = (functionId: string): Statement[] => roleStatements(synthesis.resources, functionId);


function allowedActions(functionId: string, service: string): string[] {
  return statementsOf(functionId)
    .filter((s) => s.Effect === 'Allow')
    .flatMap(actionsOf)
    .filter((a) => a.startsWith(`${service}:`));
}

/** The logical ids a statement's resources point at (through Ref or Fn::GetAtt, however deep). */

const layerIdByDescription = (pattern: RegExp) => {
  const found = ofType('AWS::Lambda::LayerVersion').filter(([, r]) => pattern.test(String(r.Properties.Description)));
  expect(found).toHaveLength(1);
  return found[0]![0];
};
/** The folder a layer's content is staged in (its asset). */
const stagedLayer = (id: string) => path.join(synthesis.outdir, `asset.${String(synthesis.resources[id]!.Properties.Content.S3Key).replace(/\.zip$/, '')}`);

/** The service's functions (each built by ServiceFunction), by logical id. */
const serviceFunctionIds = () => [
  ...GROUPS.map(groupFunctionId),
  ...(Object.keys(WORKERS) as WorkerName[]).map(workerFunctionId),
  faceCheckFunctionId(),
  ...PIPELINE.map(pipelineFunctionId),
  ids.jobs.sweeper,
  ids.jobs.executionEnded,
  ids.jobs.jobStarter,
  ids.webhooks.dispatcher,
  ids.webhooks.deliverer,
  ids.liveUpdates.socketFunction,
  ids.liveUpdates.pusher,
  mcpFunctionId(),
];
const serviceFunctions = () => ofType('AWS::Lambda::Function').filter(([id]) => serviceFunctionIds().includes(id));

const mediaBucketId = () => ids.media.bucket;
const mediaBucket = () => synthesis.resources[mediaBucketId()]!;

const singleId = (type: string) => {
  const found = ofType(type);
  expect(found).toHaveLength(1);
  return found[0]![0];
};

/** The function a route's integration calls. */
function routeTargetFunction(route: Json): string {
  const join = route.Properties.Target['Fn::Join'][1] as Json[];
  expect(join[0]).toBe('integrations/');
  const integration = synthesis.resources[join[1].Ref as string]!;
  expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
  expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
  return integration.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
}

function routeWithKey(key: string): Json {
  const found = ofHttpApi('AWS::ApiGatewayV2::Route').filter(([, r]) => r.Properties.RouteKey === key);
  expect(found).toHaveLength(1);
  return found[0]![1];
}

// ---- the HTTP API ----

describe('the HTTP API', () => {
  test.each(ROUTES.map((r) => [routeKey(r), r.group] as const))('%s is routed to the %s function', (key, group) => {
    expect(routeTargetFunction(routeWithKey(key))).toBe(groupFunctionId(group));
  });

  test('$default is routed to the meta function, which answers 404 and 405', () => {
    expect(routeTargetFunction(routeWithKey('$default'))).toBe(groupFunctionId('meta'));
  });

  test('ANY /mcp is routed to the MCP function', () => {
    expect(routeTargetFunction(routeWithKey('ANY /mcp'))).toBe(mcpFunctionId());
  });

  test('there are no routes beyond the route table, $default and /mcp', () => {
    expect(ofHttpApi('AWS::ApiGatewayV2::Route')).toHaveLength(ROUTES.length + 2);
  });

  test('each handler group has one function and one integration, and so has the MCP endpoint', () => {
    const integrationTargets = ofHttpApi('AWS::ApiGatewayV2::Integration').map(
      ([, i]) => i.Properties.IntegrationUri['Fn::GetAtt'][0] as string,
    );
    expect(integrationTargets.sort()).toEqual([...GROUPS.map(groupFunctionId), mcpFunctionId()].sort());
  });

  test('the MCP function calls the API at its public endpoint, within 29 s, and may touch neither the table nor the bucket', () => {
    const fn = functionProps(mcpFunctionId());
    expect(fn.Timeout).toBeLessThanOrEqual(29);
    const apiId = ids.api.httpApi;
    expect(JSON.stringify(fn.Environment.Variables.API_BASE_URL)).toContain(apiId);
    expect(JSON.stringify(fn.Environment.Variables.API_BASE_URL)).toContain('/api/v1');
    const reaching = statementsOf(mcpFunctionId()).flatMap(actionsOf).filter((a) => /^(dynamodb|s3|states|kms|lambda):/.test(a));
    expect(reaching).toEqual([]);
  });

  test('one auto-deployed $default stage, throttled as a backstop, with access logs', () => {
    expect(ofHttpApi('AWS::ApiGatewayV2::Stage')).toHaveLength(1);
    synthesis.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      // The formula's answer for the default expected load (stage-throttle.test.ts holds the formula).
      DefaultRouteSettings: { ThrottlingRateLimit: stageThrottle(DEFAULT_ACTIVE_ACCOUNTS).rateLimit, ThrottlingBurstLimit: stageThrottle(DEFAULT_ACTIVE_ACCOUNTS).burstLimit },
      AccessLogSettings: { DestinationArn: { 'Fn::GetAtt': [Match.anyValue(), 'Arn'] } },
    });
  });

  test('API Gateway may invoke each function only from its own API; EventBridge only the sweeper, the execution-ended function and the webhook dispatcher, each from its rule', () => {
    const apiId = ids.api.httpApi;
    const { sweeper, executionEnded } = ids.jobs;
    const { dispatcher } = ids.webhooks;
    const [byRules, permissions] = partition(ofType('AWS::Lambda::Permission'), ([, p]) => p.Properties.Principal === 'events.amazonaws.com');
    expect(permissions.length).toBeGreaterThan(0);
    expect(byRules.flatMap(([, p]) => referencedIds(p.Properties.FunctionName)).sort()).toEqual([sweeper, executionEnded, dispatcher].sort());
    for (const [, p] of byRules) expect(referencedIds(p.Properties.SourceArn).map((id) => synthesis.resources[id]?.Type)).toEqual(['AWS::Events::Rule']);
    for (const [, p] of permissions) {
      expect(p.Properties.Principal).toBe('apigateway.amazonaws.com');
      const fromWebSocket = referencedIds(p.Properties.FunctionName).includes(ids.liveUpdates.socketFunction);
      expect(referencedIds(p.Properties.SourceArn)).toContain(fromWebSocket ? ids.liveUpdates.webSocketApi : apiId);
    }
  });
});

// ---- functions ----

describe('Lambda functions', () => {
  test('there is one function per handler group, per worker and per pipeline function, the face-check function, the MCP function, the sweeper, the execution-ended function, the job starter, the webhook dispatcher and deliverer, the live-updates socket function and pusher, the deploy-time key maker of media delivery, the deploy-time copier of the studio build, and no others', () => {
    const keyMaker = ids.delivery.functions;
    expect(keyMaker.length).toBeGreaterThan(0);
    const studioCopier = ofType('AWS::Lambda::Function').filter(([id]) => id.startsWith('CustomCDKBucketDeployment')).map(([id]) => id);
    expect(studioCopier).toHaveLength(1);
    expect(ofType('AWS::Lambda::Function').map(([id]) => id).sort()).toEqual([...serviceFunctionIds(), ...keyMaker, ...studioCopier].sort());
  });

  test('every function runs the newest Node.js runtime this CDK knows (an image function its base image, render-image.test.ts), on x86_64', () => {
    const images = serviceFunctions().filter(([, fn]) => fn.Properties.PackageType === 'Image');
    const zips = serviceFunctions().filter(([, fn]) => fn.Properties.PackageType !== 'Image');
    // The functions that run ffmpeg (its tree alone is past a zip's 200 MB budget): the render function, the demo and sample workers, the products, music and videos functions.
    expect(images.map(([id]) => id).sort()).toEqual(
      [pipelineFunctionId('render'), workerFunctionId('sample-demo'), workerFunctionId('normalise-demo'), ...GROUPS.filter((g) => 'ffmpeg' in HANDLER_GROUPS[g]).map(groupFunctionId)].sort(),
    );
    expect(zips.map(([, fn]) => fn.Properties.Runtime)).toEqual(zips.map(() => 'nodejs24.x'));
    for (const [, fn] of serviceFunctions()) expect(fn.Properties.Architectures).toEqual(['x86_64']);
  });

  test('every function is traced by X-Ray and has its own role, without managed policies', () => {
    const roles = new Set<string>();
    for (const [, fn] of serviceFunctions()) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
      const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
      roles.add(roleId);
      expect(synthesis.resources[roleId]!.Properties.ManagedPolicyArns).toBeUndefined();
    }
    expect(roles.size).toBe(serviceFunctions().length);
  });

  test('each function may write only to its own log group', () => {
    for (const [id, fn] of serviceFunctions()) {
      const logGroupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      const logs = statementsOf(id).filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
      expect(logs.length).toBeGreaterThan(0);
      for (const s of logs) expect(referencedIds(s.Resource)).toEqual([logGroupId]);
    }
  });

  test('every function knows the table, the bucket and the service name', () => {
    const tableId = singleId('AWS::DynamoDB::Table');
    const bucketId = mediaBucketId();
    for (const [, fn] of serviceFunctions()) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        TABLE_NAME: { Ref: tableId },
        BUCKET_NAME: { Ref: bucketId },
        POWERTOOLS_SERVICE_NAME: 'reaction-studio',
      });
    }
  });

  test.each(GROUPS)('the %s function answers within API Gateway\'s 30 s integration timeout', (group) => {
    expect(functionProps(groupFunctionId(group)).Timeout).toBeLessThanOrEqual(29);
  });

  test('the products function has the memory and time to probe an upload', () => {
    const props = functionProps(groupFunctionId('products'));
    expect(props.MemorySize).toBeGreaterThanOrEqual(1024);
    expect(props.Timeout).toBe(29);
  });

  test('the normalise-demo worker: 3008 MB, 15 minutes, 2048 MB of /tmp', () => {
    expect(functionProps(workerFunctionId('normalise-demo'))).toMatchObject({
      MemorySize: 3008,
      Timeout: 900,
      EphemeralStorage: { Size: 2048 },
    });
  });
});

describe('ffmpeg', () => {
  const envOf = (id: string) => functionProps(id).Environment.Variables as Record<string, unknown>;
  /** The trees an image function's staged context holds (their stand-ins' names), by the asset hash its ImageUri ends with. */
  const imageTrees = (id: string) => {
    const hash = (functionProps(id).Code.ImageUri['Fn::Sub'] as string).split(':').pop()!;
    const context = path.join(synthesis.outdir, `asset.${hash}`);
    return fs.readdirSync(context).filter((folder) => fs.existsSync(path.join(context, folder, 'stand-in')));
  };
  const withFfmpeg = () => [
    ...GROUPS.filter((g) => 'ffmpeg' in HANDLER_GROUPS[g]).map(groupFunctionId),
    workerFunctionId('normalise-demo'),
    workerFunctionId('sample-demo'),
    pipelineFunctionId('render'),
  ];

  test('has no layer: its tree (~247 MB) is past the 200 MB a zip function may hold with its layers', () => {
    expect(ofType('AWS::Lambda::LayerVersion').filter(([, l]) => /ffmpeg/.test(l.Properties.Description))).toEqual([]);
  });

  test('the functions that run it are images holding its tree in /opt, with its paths', () => {
    expect(withFfmpeg()).toEqual(expect.arrayContaining([groupFunctionId('products'), groupFunctionId('videos'), groupFunctionId('music')]));
    for (const id of withFfmpeg()) {
      expect(functionProps(id).PackageType).toBe('Image');
      expect(imageTrees(id)).toContain('ffmpeg');
      expect(envOf(id)).toMatchObject({ FFMPEG_PATH: '/opt/bin/ffmpeg', FFPROBE_PATH: '/opt/bin/ffprobe' });
    }
  });

  test('functions that do not run it do not carry it (the face-check function among them: its frames come sampled)', () => {
    for (const id of [...GROUPS.filter((g) => !('ffmpeg' in HANDLER_GROUPS[g])).map(groupFunctionId), faceCheckFunctionId()]) {
      expect(functionProps(id).PackageType).not.toBe('Image');
      expect(envOf(id)).not.toHaveProperty('FFMPEG_PATH');
    }
  });
});

describe('the native-modules layer', () => {
  const layersOf = (id: string) => (functionProps(id).Layers ?? []) as unknown[];

  test('is staged from the native-modules tree', () => {
    expect(standInFor(stagedLayer(layerIdByDescription(/native npm packages/)))).toBe('native-modules');
  });

  test('holds sharp and the Skia canvas with their linux x64 binaries', () => {
    const id = layerIdByDescription(/native npm packages/);
    const description = ofType('AWS::Lambda::LayerVersion').find(([lid]) => lid === id)![1].Properties.Description as string;
    for (const name of ['sharp@', '@img/sharp-linux-x64@', '@img/sharp-libvips-linux-x64@', '@napi-rs/canvas@', '@napi-rs/canvas-linux-x64-gnu@']) {
      expect(description).toContain(name);
    }
  });

  test('goes exactly to the functions that declare native needs', () => {
    const id = layerIdByDescription(/native npm packages/);
    for (const group of GROUPS) {
      const wants = 'native' in HANDLER_GROUPS[group] && HANDLER_GROUPS[group].native === true;
      expect({ group, has: layersOf(groupFunctionId(group)).some((l) => JSON.stringify(l) === JSON.stringify({ Ref: id })) }).toEqual({ group, has: wants });
    }
    for (const worker of Object.keys(WORKERS) as WorkerName[]) {
      // An image function holds the tree itself (render-image.ts).
      const needs = WORKERS[worker] as { native?: boolean };
      const zip = WORKER_FUNCTION_SIZES[worker].packaging === 'zip';
      expect({ worker, has: layersOf(workerFunctionId(worker)).some((l) => JSON.stringify(l) === JSON.stringify({ Ref: id })) }).toEqual({ worker, has: needs.native === true && zip });
    }
    for (const name of PIPELINE) {
      // An image function holds the tree itself (render-image.ts).
      const needs = PIPELINE_FUNCTIONS[name] as { native?: boolean };
      const zip = PIPELINE_FUNCTION_SIZES[name].packaging === 'zip';
      expect({ name, has: layersOf(pipelineFunctionId(name)).some((l) => JSON.stringify(l) === JSON.stringify({ Ref: id })) }).toEqual({ name, has: needs.native === true && zip });
    }
  });
});

describe('the face-runtime layer', () => {
  const layersOf = (id: string) => (functionProps(id).Layers ?? []) as unknown[];
  const faceLayerId = () => layerIdByDescription(/^face runtime/);

  test('is staged from the face-runtime tree', () => {
    expect(standInFor(stagedLayer(faceLayerId()))).toBe('face');
  });

  test('goes exactly to the API groups that look for a face in an upload (avatars; not videos, whose ffmpeg leaves no room), the face-check function and the generate-avatar worker (a hosted portrait), no pipeline function', () => {
    const id = faceLayerId();
    const has = (fnId: string) => layersOf(fnId).some((l) => JSON.stringify(l) === JSON.stringify({ Ref: id }));
    for (const group of GROUPS) {
      const wants = 'faces' in HANDLER_GROUPS[group] && HANDLER_GROUPS[group].faces === true;
      expect({ group, has: has(groupFunctionId(group)) }).toEqual({ group, has: wants });
    }
    expect(GROUPS.filter((group) => has(groupFunctionId(group)))).toEqual(['avatars']);
    expect(has(faceCheckFunctionId())).toBe(true);
    for (const worker of Object.keys(WORKERS) as WorkerName[]) expect({ worker, has: has(workerFunctionId(worker)) }).toEqual({ worker, has: worker === 'generate-avatar' });
    for (const name of PIPELINE) expect({ name, has: has(pipelineFunctionId(name)) }).toEqual({ name, has: false });
  });
});

describe('the face-check function', () => {
  const layerDescriptions = (id: string) =>
    ((functionProps(id).Layers ?? []) as Json[]).map((layer) => String(synthesis.resources[layer.Ref as string]!.Properties.Description));

  test('a zip of its handler with the face runtime and the native modules (sharp) as layers, and no ffmpeg', () => {
    const props = functionProps(faceCheckFunctionId());
    expect(props.PackageType).toBeUndefined();
    expect(props.Handler).toBe('index.handler');
    expect(FACE_CHECK_FUNCTION.entry).toBe('functions/handlers/face-check.ts');
    const layers = layerDescriptions(faceCheckFunctionId());
    expect(layers).toHaveLength(2);
    expect(layers).toEqual(expect.arrayContaining([expect.stringMatching(/^face runtime/), expect.stringMatching(/native npm packages/)]));
    expect(layers.filter((d) => /ffmpeg/.test(d))).toEqual([]);
    expect(props.Environment.Variables).not.toHaveProperty('FFMPEG_PATH');
  });

  test("a full vCPU (1769 MB), and a timeout that leaves the videos function's request room inside API Gateway's 29 s", () => {
    const props = functionProps(faceCheckFunctionId());
    expect(props.MemorySize).toBe(FACE_CHECK_FUNCTION_SIZE.memoryMb);
    expect(props.MemorySize).toBe(1769);
    expect(props.Timeout).toBe(FACE_CHECK_FUNCTION_SIZE.timeoutS);
    expect(props.Timeout).toBeLessThanOrEqual(API_FUNCTION_SIZES.videos.timeoutS / 2);
  });

  test('may touch neither the table, the bucket, the state machine nor another function: its frames come in its event', () => {
    const reaching = statementsOf(faceCheckFunctionId()).flatMap(actionsOf).filter((a) => /^(dynamodb|s3|states|kms|lambda|secretsmanager):/.test(a));
    expect(reaching).toEqual([]);
  });

  test('is invoked synchronously only: no asynchronous invocation settings, no on-failure destination, and no route or rule may invoke it', () => {
    const fn = faceCheckFunctionId();
    expect(ofType('AWS::Lambda::EventInvokeConfig').filter(([, c]) => referencedIds(c.Properties.FunctionName).includes(fn))).toEqual([]);
    expect(ofType('AWS::Lambda::Permission').filter(([, p]) => referencedIds(p.Properties.FunctionName).includes(fn))).toEqual([]);
  });
});

// ---- data and media ----

describe('the table', () => {
  test('survives mistakes: kept when the stack goes, protected from deletion, backed up daily for 35 days', () => {
    const [[tableId, table]] = ofType('AWS::DynamoDB::Table') as [[string, Json]];
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    const [[, plan]] = ofType('AWS::Backup::BackupPlan') as [[string, Json]];
    expect(plan.Properties.BackupPlan.BackupPlanRule).toEqual([expect.objectContaining({ ScheduleExpression: 'cron(0 5 * * ? *)', Lifecycle: { DeleteAfterDays: 35 } })]);
    const [[, selection]] = ofType('AWS::Backup::BackupSelection') as [[string, Json]];
    expect(JSON.stringify(selection.Properties.BackupSelection.Resources)).toContain(tableId);
  });

  test('is on-demand, with point-in-time recovery and TTL on expires_at', () => {
    synthesis.template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
    });
  });

  test('has keys pk/sk (strings), gsi1 on gsi1pk/gsi1sk projecting all, and gsi2 on gsi2pk/gsi2sk projecting only attributes items never change', () => {
    synthesis.template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'gsi1pk', AttributeType: 'S' },
        { AttributeName: 'gsi1sk', AttributeType: 'S' },
        { AttributeName: 'gsi2pk', AttributeType: 'S' },
        { AttributeName: 'gsi2sk', AttributeType: 'S' },
      ]),
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'gsi2',
          KeySchema: [
            { AttributeName: 'gsi2pk', KeyType: 'HASH' },
            { AttributeName: 'gsi2sk', KeyType: 'RANGE' },
          ],
          Projection: {
            ProjectionType: 'INCLUDE',
            NonKeyAttributes: ['account_id', 'id', 'created_at', 'job_id', 'charge_number', 'reserved_at', 'endpoint_id', 'event_type', 'subject', 'order_key'],
          },
        },
      ],
    });
  });

  test('survives the deletion of the stack', () => {
    synthesis.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('the media bucket', () => {
  test('blocks every kind of public access', () => {
    expect(mediaBucket().Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });

  test('encrypts objects with S3-managed keys', () => {
    expect(mediaBucket().Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
  });

  test('refuses requests that are not over TLS', () => {
    const bucketId = mediaBucketId();
    const policies = ofType('AWS::S3::BucketPolicy').filter(([, p]) => p.Properties.Bucket.Ref === bucketId);
    expect(policies).toHaveLength(1);
    const [, policy] = policies[0]!;
    const statements = policy.Properties.PolicyDocument.Statement as Json[];
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Principal: { AWS: '*' },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
  });

  test('is versioned, keeps an overwritten or deleted object a week, and survives the deletion of the stack', () => {
    const bucket = mediaBucket();
    expect(bucket.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(bucket.Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: 7 }, ExpiredObjectDeleteMarker: true }),
    );
    expect(bucket.DeletionPolicy).toBe('Retain');
  });

  test('logs server access to its own private bucket, which keeps the logs for 90 days', () => {
    const logsId = ids.media.accessLogs;
    expect(mediaBucket().Properties.LoggingConfiguration).toEqual({ DestinationBucketName: { Ref: logsId }, LogFilePrefix: 'media/' });
    const logs = synthesis.resources[logsId]!;
    expect(logs.Properties.PublicAccessBlockConfiguration).toEqual(mediaBucket().Properties.PublicAccessBlockConfiguration);
    expect(logs.Properties.LifecycleConfiguration.Rules).toEqual([expect.objectContaining({ Status: 'Enabled', ExpirationInDays: 90 })]);
  });

  test('aborts stale multipart uploads and expires tmp/ after a day', () => {
    const rules = mediaBucket().Properties.LifecycleConfiguration.Rules as Json[];
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }),
    );
    const abort = rules.find((r) => r.AbortIncompleteMultipartUpload);
    expect(abort.Prefix).toBeUndefined();
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', Prefix: 'tmp/', ExpirationInDays: 1 }));
  });

  test('expires direct-upload objects nobody used after two days (a form lives an hour)', () => {
    const rules = mediaBucket().Properties.LifecycleConfiguration.Rules as Json[];
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', Prefix: 'uploads/', ExpirationInDays: 2 }));
  });

  test("expires a finished video's files by the retention tag they are written with: one rule per plan retention class", () => {
    const rules = mediaBucket().Properties.LifecycleConfiguration.Rules as Json[];
    const byTag = rules.filter((r) => r.TagFilters);
    const planDays = [...new Set(PLAN_NAMES.map((name) => planOf(name).videoRetentionDays))].sort((a, b) => a - b);
    expect(byTag.map((r) => r.ExpirationInDays)).toEqual(planDays);
    for (const rule of byTag) {
      expect(rule).toMatchObject({ Status: 'Enabled', TagFilters: [{ Key: RETENTION_TAG, Value: `days-${rule.ExpirationInDays}` }] });
      // Tags alone select: a video's key starts with its account, so no prefix names them all.
      expect(rule.Prefix).toBeUndefined();
    }
    // Expiry leaves a delete marker in this versioned bucket: the bytes go with the noncurrent versions a week later.
    expect(rules).toContainEqual(expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 7 }, ExpiredObjectDeleteMarker: true }));
    expect(rules.find((r) => r.NoncurrentVersionExpiration)!.TagFilters).toBeUndefined();
  });

  test('only functions that write the videos area may tag objects, and only there', () => {
    const tagging = serviceFunctionIds().flatMap((id) => statementsOf(id).filter((s) => actionsOf(s).includes('s3:PutObjectTagging')).map((s) => ({ id, s })));
    expect(tagging.map(({ id }) => id)).toContain(pipelineFunctionId('render'));
    for (const { s } of tagging) {
      expect(actionsOf(s)).toEqual(['s3:PutObjectTagging']);
      expect(JSON.stringify(s.Resource)).toContain(`/${mediaAreaPattern('videos')}`);
      expect(resourcesOf(s)).toHaveLength(1);
    }
  });

  test('lets browsers POST direct uploads to their presigned forms, and nothing else cross-origin', () => {
    expect(mediaBucket().Properties.CorsConfiguration.CorsRules).toEqual([
      { AllowedMethods: ['POST'], AllowedOrigins: ['*'], AllowedHeaders: ['*'], MaxAge: 3600 },
    ]);
  });
});

// ---- least privilege ----

/** Every statement of the job state machine's role. */
function stateMachineStatements(): Statement[] {
  const [, sm] = ofType('AWS::StepFunctions::StateMachine')[0] as [string, Json];
  const roleId = sm.Properties.RoleArn['Fn::GetAtt'][0] as string;
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}

describe('permissions', () => {
  test.each(GROUPS)('the %s function has exactly the table and bucket access its group declares', (group) => {
    const id = groupFunctionId(group);
    const needs = HANDLER_GROUPS[group];
    expect(allowedActions(id, 'dynamodb').length > 0).toBe(needs.table !== 'none');
    expect(allowedActions(id, 's3').length > 0).toBe(needs.bucket !== 'none');
    const writes = (a: string) => /^dynamodb:(PutItem|UpdateItem|DeleteItem|BatchWriteItem)$/.test(a);
    expect(allowedActions(id, 'dynamodb').some(writes)).toBe(needs.table === 'readwrite');
  });

  const mediaFunctions = (): [string, FunctionNeeds][] => [
    ...GROUPS.map((g): [string, FunctionNeeds] => [groupFunctionId(g), HANDLER_GROUPS[g]]),
    ...(Object.keys(WORKERS) as WorkerName[]).map((w): [string, FunctionNeeds] => [workerFunctionId(w), WORKERS[w]]),
    ...PIPELINE.map((f): [string, FunctionNeeds] => [pipelineFunctionId(f), PIPELINE_FUNCTIONS[f]]),
  ];

  test('a function writes and deletes media only in the areas it declares, and reads the bucket', () => {
    const media = mediaBucketId();
    for (const [id, needs] of mediaFunctions()) {
      const writing = statementsOf(id).filter((s) => actionsOf(s).some((a) => /^s3:(Put|Delete|Abort)/.test(a)));
      const areas = writing.flatMap(resourcesOf).map((r: Json) => {
        expect(r['Fn::Join'][1][0]).toEqual({ 'Fn::GetAtt': [media, 'Arn'] });
        return r['Fn::Join'][1][1] as string;
      });
      const declared = needs.bucket === 'readwrite' ? (needs.writes ?? []) : [];
      // The videos area is also in a statement of its own (tagging), so each area counts once.
      expect({ id, areas: [...new Set(areas)].sort() }).toEqual({ id, areas: declared.map((a) => `/${mediaAreaPattern(a)}`).sort() });
      if (needs.bucket !== 'none') expect(allowedActions(id, 's3')).toEqual(expect.arrayContaining(['s3:GetObject', 's3:ListBucket']));
    }
  });

  test('the meta function has no DynamoDB or S3 permissions', () => {
    const id = groupFunctionId('meta');
    expect(allowedActions(id, 'dynamodb')).toEqual([]);
    expect(allowedActions(id, 's3')).toEqual([]);
  });

  test('the usage function writes the table (rate limit, key last use) but cannot touch the bucket', () => {
    const id = groupFunctionId('usage');
    expect(allowedActions(id, 'dynamodb')).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:Query']));
    expect(allowedActions(id, 's3')).toEqual([]);
  });

  /** `id` may invoke `target` (and its versions) and no other function, and finds its name in `env`; or each of several such targets. */
  function expectInvokesOnly(id: string, target: string, env: string, ...more: [string, string][]): void {
    const targets = [[target, env], ...more];
    const lambdaStatements = statementsOf(id).filter((s) => actionsOf(s).some((a) => a.startsWith('lambda:')));
    expect(lambdaStatements.length).toBeGreaterThan(0);
    for (const s of lambdaStatements) {
      expect(actionsOf(s)).toEqual(['lambda:InvokeFunction']);
      expect(resourcesOf(s)).not.toContain('*');
    }
    expect(new Set(lambdaStatements.flatMap((s) => referencedIds(s.Resource)))).toEqual(new Set(targets.map(([fn]) => fn)));
    for (const [fn, name] of targets) expect(functionProps(id).Environment.Variables[name!]).toEqual({ Ref: fn });
  }

  test('the products function may start the normalise-demo and sample-demo workers and no other function', () => {
    expectInvokesOnly(groupFunctionId('products'), workerFunctionId('normalise-demo'), 'NORMALISE_FUNCTION_NAME', [workerFunctionId('sample-demo'), 'SAMPLE_DEMO_FUNCTION_NAME']);
  });

  test('the avatars function may start the generate-avatar worker and no other function', () => {
    expectInvokesOnly(groupFunctionId('avatars'), workerFunctionId('generate-avatar'), 'GENERATE_AVATAR_FUNCTION_NAME');
  });

  test('the videos function may invoke the face-check function, exactly it, named in FACE_CHECK_FUNCTION_NAME', () => {
    expect(HANDLER_GROUPS.videos.calls).toEqual([{ helper: 'face-check', env: FACE_CHECK_FUNCTION_ENV }]);
    expectInvokesOnly(groupFunctionId('videos'), faceCheckFunctionId(), FACE_CHECK_FUNCTION_ENV);
  });

  test('the render function may invoke the face-check function, exactly it, named in FACE_CHECK_FUNCTION_NAME (a hosted clip\'s face box)', () => {
    expect(PIPELINE_FUNCTIONS.render.calls).toEqual([{ helper: 'face-check', env: FACE_CHECK_FUNCTION_ENV }]);
    expectInvokesOnly(pipelineFunctionId('render'), faceCheckFunctionId(), FACE_CHECK_FUNCTION_ENV);
  });

  test('no function that declares no invocations or calls may invoke a function, nor knows the face-check function', () => {
    const invokesNothing = (g: HandlerGroup) => !('invokes' in HANDLER_GROUPS[g]) && !('calls' in HANDLER_GROUPS[g]);
    const others = [
      ...GROUPS.filter(invokesNothing).map(groupFunctionId),
      ...(Object.keys(WORKERS) as WorkerName[]).map(workerFunctionId),
      faceCheckFunctionId(),
      ...PIPELINE.filter((name) => !('calls' in PIPELINE_FUNCTIONS[name])).map(pipelineFunctionId),
    ];
    for (const id of others) expect(allowedActions(id, 'lambda')).toEqual([]);
    const knowing = serviceFunctions().filter(([, fn]) => FACE_CHECK_FUNCTION_ENV in fn.Properties.Environment.Variables).map(([fnId]) => fnId);
    expect(knowing.sort()).toEqual([groupFunctionId('videos'), pipelineFunctionId('render')].sort());
  });

  test('no policy grants DynamoDB or S3 actions on every resource', () => {
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      for (const s of policy.Properties.PolicyDocument.Statement as Statement[]) {
        if (!actionsOf(s).some((a) => /^(dynamodb|s3):/.test(a) || a === '*')) continue;
        // Reading a table's stream (the webhook dispatcher) needs ListStreams, which has no resource to scope it to.
        if (actionsOf(s).filter((a) => /^(dynamodb|s3):/.test(a)).join() === 'dynamodb:ListStreams') continue;
        expect(resourcesOf(s)).not.toContain('*');
        // The studio's build is read from CDK's bootstrap assets bucket (outside the stack), read-only.
        if (JSON.stringify(s.Resource).includes('cdk-hnb659fds-assets')) {
          expect(actionsOf(s).every((a) => /^s3:(Get|List)/.test(a))).toBe(true);
          continue;
        }
        const ids = referencedIds(s.Resource).filter((id) => !id.startsWith('AWS::'));
        expect(ids.length).toBeGreaterThan(0);
        for (const ref of ids) expect(['AWS::DynamoDB::Table', 'AWS::S3::Bucket']).toContain(synthesis.resources[ref]?.Type);
      }
    }
  });

  // The reason the cdk-nag acknowledgements of `Resource::*` give (service-function.ts, job-pipeline.ts), held true.
  test('statements on every resource are only X-Ray\'s (functions; and ListStreams for the stream readers: the webhook dispatcher, the job starter and the live-update pusher) and log delivery\'s and X-Ray\'s (the state machine)', () => {
    const onEverything = (statements: Statement[]) => new Set(statements.filter((st) => resourcesOf(st).includes('*')).flatMap(actionsOf));
    const streamReaders = [ids.webhooks.dispatcher, ids.jobs.jobStarter, ids.liveUpdates.pusher];
    const others = serviceFunctions().filter(([id]) => !streamReaders.includes(id));
    expect([...onEverything(others.flatMap(([id]) => statementsOf(id)))].sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    // Reading the table's stream needs ListStreams, which no resource scopes.
    for (const reader of streamReaders) expect([...onEverything(statementsOf(reader))].sort()).toEqual(['dynamodb:ListStreams', 'xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    const stateMachine = onEverything(stateMachineStatements());
    expect(stateMachine.size).toBeGreaterThan(0);
    for (const action of stateMachine) expect(action).toMatch(/^(xray|logs):/);
  });

  test('no statement allows every action', () => {
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      for (const s of policy.Properties.PolicyDocument.Statement as Statement[]) {
        expect(actionsOf(s).filter((a) => a === '*' || a.endsWith(':*'))).toEqual([]);
      }
    }
  });
});

// ---- the job pipeline ----

describe('the job state machine', () => {
  const stateMachineId = () => singleId('AWS::StepFunctions::StateMachine');

  test("is one Standard state machine whose Tasks call the two pipeline functions' live aliases", () => {
    const sm = synthesis.resources[stateMachineId()]!;
    expect(sm.Properties.StateMachineType).toBe('STANDARD');
    const substitutions = sm.Properties.DefinitionSubstitutions as Record<string, Json>;
    expect(Object.keys(substitutions).sort()).toEqual(PIPELINE.map((f) => PIPELINE_FUNCTIONS[f].substitution).sort());
    for (const name of PIPELINE) {
      expect(substitutions[PIPELINE_FUNCTIONS[name].substitution]).toEqual({ Ref: ids.jobs.aliases[name] });
    }
  });

  test('is traced by X-Ray', () => {
    expect(synthesis.resources[stateMachineId()]!.Properties.TracingConfiguration).toEqual({ Enabled: true });
  });

  test("its role may invoke exactly the two pipeline functions' live aliases", () => {
    const roleId = synthesis.resources[stateMachineId()]!.Properties.RoleArn['Fn::GetAtt'][0] as string;
    const statements = ofType('AWS::IAM::Policy')
      .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
    const invoke = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('lambda:')));
    expect(invoke.length).toBeGreaterThan(0);
    for (const s of invoke) {
      expect(actionsOf(s)).toEqual(['lambda:InvokeFunction']);
      expect(resourcesOf(s)).not.toContain('*');
      expect(new Set(referencedIds(s.Resource))).toEqual(new Set(PIPELINE.map((name) => ids.jobs.aliases[name])));
    }
  });

  test('the render function: a container image (no layers: it holds their trees), memory, timeout and /tmp for clips', () => {
    const props = functionProps(pipelineFunctionId('render'));
    expect(props.PackageType).toBe('Image');
    expect(props.Layers).toBeUndefined();
    expect(props.MemorySize).toBe(PIPELINE_FUNCTION_SIZES.render.memoryMb);
    expect(props.Timeout).toBe(PIPELINE_FUNCTIONS.render.callBudgetS);
    expect(props.EphemeralStorage.Size).toBeGreaterThanOrEqual(4096);
  });

  test('the videos function may start executions and answer task tokens of that state machine', () => {
    const id = groupFunctionId('videos');
    const statesStatements = statementsOf(id).filter((s) => actionsOf(s).some((a) => a.startsWith('states:')));
    expect(allowedActions(id, 'states')).toEqual(
      expect.arrayContaining(['states:StartExecution', 'states:SendTaskSuccess', 'states:SendTaskFailure']),
    );
    for (const s of statesStatements) {
      expect(resourcesOf(s)).not.toContain('*');
      expect(referencedIds(s.Resource)).toEqual([stateMachineId()]);
    }
    expect(functionProps(id).Environment.Variables.JOB_STATE_MACHINE_ARN).toEqual({ Ref: stateMachineId() });
  });

  test.each(GROUPS.filter((g) => 'jobs' in HANDLER_GROUPS[g]))('the %s function gets exactly what its jobs declaration asks', (group) => {
    const id = groupFunctionId(group);
    const jobs = (HANDLER_GROUPS[group] as { jobs: readonly string[] }).jobs;
    const actions = allowedActions(id, 'states');
    expect(actions.includes('states:StartExecution')).toBe(jobs.includes('start'));
    expect(actions.includes('states:SendTaskSuccess')).toBe(jobs.includes('decide'));
    expect('JOB_STATE_MACHINE_ARN' in functionProps(id).Environment.Variables).toBe(jobs.includes('start'));
    expect(actions.filter((a) => !/^states:(StartExecution|SendTask(Success|Failure|Heartbeat))$/.test(a))).toEqual([]);
  });

  test("hosted engines by callback: fal's webhook route reaches the videos function, which may answer task tokens of the state machine only; the render function names the API's address", () => {
    const route = routeWithKey('POST /api/v1/engines/fal/callbacks/{ticket}');
    expect(routeTargetFunction(route)).toBe(groupFunctionId('videos'));
    // No authorizer: the ticket (a secret drawn per job round) is what the caller proves itself with.
    expect(route.Properties.AuthorizationType ?? 'NONE').toBe('NONE');
    const answering = statementsOf(groupFunctionId('videos')).filter((s) => actionsOf(s).some((a) => a.startsWith('states:SendTask')));
    expect(answering.length).toBeGreaterThan(0);
    for (const s of answering) expect(referencedIds(s.Resource)).toEqual([stateMachineId()]);
    const callbackUrl = functionProps(pipelineFunctionId('render')).Environment.Variables[PROVIDER_CALLBACK_ENV];
    expect(referencedIds(callbackUrl)).toEqual([ids.api.httpApi]);
    expect(allowedActions(pipelineFunctionId('render'), 'states')).toEqual([]);
  });

  test('no other function has any Step Functions permission or knows the state machine', () => {
    const declared = (g: HandlerGroup) => 'jobs' in HANDLER_GROUPS[g];
    expect(GROUPS.filter(declared)).toContain('videos');
    const others = [
      ...GROUPS.filter((g) => !declared(g)).map(groupFunctionId),
      ...(Object.keys(WORKERS) as WorkerName[]).map(workerFunctionId),
      ...PIPELINE.map(pipelineFunctionId),
    ];
    for (const id of others) {
      expect({ id, actions: allowedActions(id, 'states') }).toEqual({ id, actions: [] });
      expect(functionProps(id).Environment.Variables).not.toHaveProperty('JOB_STATE_MACHINE_ARN');
    }
  });
});

describe('observability', () => {
  test('an alarm watches each failure queue, the API, the jobs, the executions and throttles', () => {
    const { observability, workers, jobs, api } = ids;
    const alarmed = (queueId: string) =>
      ofType('AWS::CloudWatch::Alarm').some(([, a]) => a.Properties.MetricName === 'ApproximateNumberOfMessagesVisible' && referencedIds(a.Properties.Dimensions).includes(queueId));
    expect(alarmed(workers.failedInvocations)).toBe(true);
    expect(alarmed(jobs.executionEndedFailures)).toBe(true);
    expect(Object.keys(observability.alarms)).toEqual(expect.arrayContaining(['api5xx', 'failedJobs', 'failedExecutions', 'throttles']));
    const apiAlarm = synthesis.resources[observability.alarms.api5xx!]!;
    expect(referencedIds(apiAlarm.Properties.Metrics)).toContain(api.httpApi);
  });
});

describe('outputs', () => {
  test('ApiUrl is the API endpoint with the /api/v1 prefix', () => {
    const apiId = ids.api.httpApi;
    synthesis.template.hasOutput('ApiUrl', {
      Value: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }, '/api/v1']] },
    });
  });

  test('TableName and BucketName name the stack\'s table and bucket', () => {
    synthesis.template.hasOutput('TableName', { Value: { Ref: singleId('AWS::DynamoDB::Table') } });
    synthesis.template.hasOutput('BucketName', { Value: { Ref: mediaBucketId() } });
  });

  test('JobStateMachineArn is the job state machine', () => {
    synthesis.template.hasOutput('JobStateMachineArn', { Value: { Ref: singleId('AWS::StepFunctions::StateMachine') } });
  });
});
