/**
 * The facts `npm run doctor` judges (doctor.ts), read from this machine, the CDK context and the
 * account: Docker's `info`, Lambda's GetAccountSettings and a one-token Bedrock request (a fraction
 * of a cent) when hooks are generated there.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { concurrencyFromContext } from '#cloud/concurrency';
import { engineConfigFromContext } from '#cloud/engine-config';
import { API_FUNCTION_SIZES } from '#cloud/function-sizes';
import { stagingPath, thisHost } from '#cloud/host-staging';
import { IMAGE_COPIES, BUNDLE_FOLDER, type ImageTree } from '#cloud/render-image';
import { PROJECT_ROOT } from '#cloud/service-function';
import type { DoctorFacts } from './doctor';

/** cdk.json's context with `-c key=value` arguments over it, as `cdk deploy` would see them. */
export function deployContext(argv: readonly string[]): Record<string, unknown> {
  const context = { ...(JSON.parse(readFileSync(join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> }).context };
  for (let i = 0; i < argv.length; i++) {
    const pair = argv[i] === '-c' || argv[i] === '--context' ? argv[++i] : undefined;
    const at = pair?.indexOf('=') ?? -1;
    if (pair === undefined || at < 1) throw new Error(`expected -c key=value, got ${argv.slice(i - 1, i + 1).join(' ') || '(nothing)'}`);
    context[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return context;
}

export function dockerInfo(run = (args: string[]) => spawnSync('docker', args, { encoding: 'utf8', timeout: 20_000 })): DoctorFacts['docker'] {
  const answer = run(['info', '--format', '{{json .}}']);
  if (answer.error || answer.status !== 0) return { serverVersion: null, containerdStore: false };
  try {
    const info = JSON.parse(answer.stdout) as { ServerVersion?: string; DriverStatus?: [string, string][] };
    return { serverVersion: info.ServerVersion || null, containerdStore: JSON.stringify(info.DriverStatus ?? []).includes('io.containerd.snapshotter') };
  } catch {
    return { serverVersion: null, containerdStore: false };
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

export interface DoctorClients {
  lambda: LambdaClient;
  bedrock: BedrockRuntimeClient;
}

export async function gatherFacts(argv: readonly string[], clients: DoctorClients = { lambda: new LambdaClient({}), bedrock: new BedrockRuntimeClient({}) }, docker = dockerInfo): Promise<DoctorFacts> {
  const app = new App({ context: deployContext(argv) });
  const reserved = concurrencyFromContext(app);
  const engines = engineConfigFromContext(app);
  const host = thisHost();
  const trees = IMAGE_COPIES.map((c) => c.folder).filter((f): f is ImageTree => f !== BUNDLE_FOLDER);
  const region = await clients.lambda.config.region().catch(() => null);
  const lambda = await clients.lambda
    .send(new GetAccountSettingsCommand({}))
    .then((s) => ({ concurrencyLimit: s.AccountLimit?.ConcurrentExecutions ?? 0 }))
    .catch((error: unknown) => ({ error: messageOf(error) }));
  let bedrock: DoctorFacts['bedrock'] = null;
  if (engines.hooks === 'bedrock' && region) {
    bedrock = await clients.bedrock
      .send(new ConverseCommand({ modelId: engines.bedrockModelId, messages: [{ role: 'user', content: [{ text: 'Say ok.' }] }], inferenceConfig: { maxTokens: 1 } }))
      .then(() => 'ok' as const)
      .catch((error: unknown) => ((error as Error).name === 'AccessDeniedException' ? { denied: messageOf(error) } : { unavailable: messageOf(error) }));
  }
  return {
    platform: host.platform,
    arch: host.arch,
    staging: Object.fromEntries(trees.map((t) => [t, stagingPath(t, host)])) as DoctorFacts['staging'],
    docker: docker(),
    region,
    lambda,
    plan: { apiFunctions: Object.keys(API_FUNCTION_SIZES).length, apiReserved: reserved.api, renderReserved: reserved.render, hookEngine: engines.hooks, bedrockModelId: engines.bedrockModelId },
    bedrock,
  };
}
