/**
 * The app as the template tests synthesise it: cdk.json's context, like `cdk synth`, with stand-in
 * layer trees (test/support/layer-trees.ts). `synthesise` writes the entry the suites share
 * (synthesis-cache.ts): the app, and each of its VARIANTS, the app with other context for the tests
 * of a deployment choice.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stage, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import * as cxapi from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { ReactionStudioStack } from '#cloud/reaction-studio-stack';
import type { Synthesised } from './cdk-template';
import { standIn } from './layer-trees';
import { nagAcknowledgements, nagFindings } from './nag-findings';
import { entryFiles, STACK_NAME, VARIANTS, type LogicalIds, type SynthesisIndex, type VariantName } from './synthesis-cache';

const ROOT = path.resolve(__dirname, '..', '..');

const cdkContext = () => (JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> }).context;

const standInStack = (outdir: string, context: Record<string, unknown>) =>
  new ReactionStudioStack(new App({ outdir, context: { ...cdkContext(), ...context } }), STACK_NAME, { standIn });

function logicalIdsOf(stack: ReactionStudioStack): LogicalIds {
  const id = (construct: IConstruct) => stack.getLogicalId((construct.node.defaultChild ?? construct) as CfnElement);
  const ids = <K extends string>(constructs: Record<K, IConstruct>) =>
    Object.fromEntries(Object.entries<IConstruct>(constructs).map(([key, construct]) => [key, id(construct)])) as Record<K, string>;
  const functionsBelow = (scope: IConstruct) => scope.node.findAll().filter((c) => c instanceof CfnFunction).map((c) => stack.getLogicalId(c as CfnFunction));
  const { data, media, delivery, workers, faceCheck, webhooks, liveUpdates, jobs, api, observability, studio } = stack;
  return {
    data: { table: data.table.node.defaultChild ? id(data.table) : '', connectionKey: id(data.connectionKey) },
    media: { bucket: id(media.bucket), accessLogs: id(media.accessLogs) },
    delivery: { distribution: id(delivery.distribution), signingKey: id(delivery.signingKey), functions: functionsBelow(delivery) },
    workers: { functions: ids(workers.functions), failedInvocations: id(workers.failedInvocations) },
    faceCheck: { function: id(faceCheck.fn) },
    webhooks: ids({
      dispatcher: webhooks.dispatcher,
      deliverer: webhooks.deliverer,
      queue: webhooks.queue,
      failedDeliveries: webhooks.failedDeliveries,
      failedStreamBatches: webhooks.failedStreamBatches,
    }),
    liveUpdates: ids({
      webSocketApi: liveUpdates.webSocketApi,
      stage: liveUpdates.stage,
      socketFunction: liveUpdates.socketFunction,
      pusher: liveUpdates.pusher,
      failedStreamBatches: liveUpdates.failedStreamBatches,
    }),
    jobs: {
      functions: ids(jobs.functions),
      aliases: ids(jobs.aliases),
      ...ids({
        sweeper: jobs.sweeper,
        executionEnded: jobs.executionEnded,
        executionEndedFailures: jobs.executionEndedFailures,
        jobStarter: jobs.jobStarter,
        failedStarts: jobs.failedStarts,
        stateMachine: jobs.stateMachine,
        logGroup: jobs.logGroup,
      }),
      allFunctions: functionsBelow(jobs),
    },
    api: { functions: ids(api.functions), mcp: id(api.mcp.fn), httpApi: id(api.httpApi) },
    observability: { alarms: ids(observability.alarms) },
    studio: { distribution: id(studio.distribution), bucket: id(studio.bucket) },
  };
}

/**
 * Synthesises the app into the cache entry `dir`: its assembly, the index of what only the construct
 * tree knows, and each variant's resources and logical ids. The variants are synthesised here, after
 * the app, because this process has then loaded aws-cdk-lib and CloudFormation Validate's rules
 * already: a variant costs about 1 CPU-s here, 12 alone in a jest worker.
 */
export function synthesise(dir: string): void {
  const files = entryFiles(dir);
  const stack = standInStack(files.assembly, {});
  Stage.of(stack)!.synth();
  const index: SynthesisIndex = {
    logicalIds: logicalIdsOf(stack),
    // As `cdk synth` runs the packs (bin/app.ts), but recorded rather than thrown: the nag test reports them.
    nag: { findings: nagFindings(stack), acknowledgements: nagAcknowledgements(stack) },
  };
  fs.writeFileSync(files.index, JSON.stringify(index));
  for (const [name, context] of Object.entries(VARIANTS)) fs.writeFileSync(files.variant(name as VariantName), JSON.stringify(synthesiseVariant(context)));
}

/**
 * The app with `context` over cdk.json's, synthesised (and validated, as every synthesis is) into a
 * folder removed before it answers: its resources and logical ids, as the cached synthesis has them.
 * Nothing is bundled: a deployment choice shows in the template, not in the bundles.
 */
function synthesiseVariant(context: Record<string, unknown>): Pick<Synthesised, 'resources' | 'ids'> {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'reaction-studio-variant-'));
  try {
    const stack = standInStack(outdir, { ...context, [cxapi.BUNDLING_STACKS]: [] });
    return { resources: Template.fromStack(stack).toJSON().Resources as Synthesised['resources'], ids: logicalIdsOf(stack) };
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}
