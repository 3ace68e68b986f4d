/**
 * `npm run doctor`: what a deploy from this machine into this account and region needs, checked before
 * `cdk deploy` finds out halfway: a region, Docker (the images, and the trees this host stages in a
 * container), Lambda's concurrency quota against the reservations the context asks for, and access
 * to the Bedrock model when hooks are generated there. Each finding says what to do or what to ask
 * AWS for. The facts are gathered by doctor-facts.ts; the judging here is pure.
 */
import type { ImageTree } from '#cloud/render-image';
import type { StagingPath } from '#cloud/host-staging';

/** Lambda keeps this many executions unreserved: a reservation that would leave fewer is refused. */
const LAMBDA_MIN_UNRESERVED = 100;
/** The default account quota; new accounts start lower. */
const LAMBDA_DEFAULT_QUOTA = 1000;
/** Service Quotas' code for "Concurrent executions" (AWS Lambda). */
export const LAMBDA_CONCURRENCY_QUOTA_CODE = 'L-B99A9384';

export interface DoctorFacts {
  platform: string;
  arch: string;
  /** How each tree would be staged here (host-staging.ts). */
  staging: Record<ImageTree, StagingPath>;
  /** The Docker daemon's version, or null when none answers; whether it stores images in containerd. */
  docker: { serverVersion: string | null; containerdStore: boolean };
  region: string | null;
  /** GetAccountSettings, or why it could not be read (credentials, network). */
  lambda: { concurrencyLimit: number } | { error: string };
  /** What the context asks for: reservations per API function and for render, and the hook engine. */
  plan: { apiFunctions: number; apiReserved?: number; renderReserved?: number; hookEngine: string; bedrockModelId: string };
  /** A one-token request to the model, when hooks are generated on Bedrock. */
  bedrock: 'ok' | { denied: string } | { unavailable: string } | null;
}

type Level = 'ok' | 'warn' | 'fail';
export interface Finding {
  level: Level;
  check: string;
  says: string;
}

const finding = (level: Level, check: string, says: string): Finding => ({ level, check, says });

function regionFindings(f: DoctorFacts): Finding[] {
  return [f.region ? finding('ok', 'region', f.region) : finding('fail', 'region', 'none configured: set AWS_REGION, or a region in the AWS profile you deploy with')];
}

function dockerFindings(f: DoctorFacts): Finding[] {
  const inContainer = (Object.entries(f.staging) as [ImageTree, StagingPath][]).filter(([, p]) => p === 'docker').map(([tree]) => tree);
  const why = `cdk deploy builds the render and sample-demo images${inContainer.length ? `, and this ${f.platform}/${f.arch} machine stages ${inContainer.join(', ')} in a linux/amd64 container at synth` : ''}`;
  if (!f.docker.serverVersion) return [finding('fail', 'docker', `no Docker daemon answers: ${why}. Start Docker (Docker Desktop, colima or dockerd)`)];
  const found = [finding('ok', 'docker', `server ${f.docker.serverVersion}; ${why}`)];
  if (f.docker.containerdStore) {
    found.push(finding('warn', 'docker image store', "Docker keeps images in containerd, whose pushes can be an image index Lambda refuses (aws-cdk issue 31548): turn off \"Use containerd for pulling and storing images\" before deploying"));
  }
  return found;
}

/** Everything the context reserves, and what the account's quota must be to grant it. */
export function reservedExecutions(plan: DoctorFacts['plan']): number {
  return (plan.apiReserved ?? 0) * plan.apiFunctions + (plan.renderReserved ?? 0);
}

function concurrencyFindings(f: DoctorFacts): Finding[] {
  if ('error' in f.lambda) return [finding('fail', 'lambda concurrency', `could not read the account's settings: ${f.lambda.error}`)];
  const limit = f.lambda.concurrencyLimit;
  const reserved = reservedExecutions(f.plan);
  const needed = reserved + LAMBDA_MIN_UNRESERVED;
  const ask = (at: number) => `ask AWS for at least ${at} (Service Quotas → AWS Lambda → Concurrent executions, ${LAMBDA_CONCURRENCY_QUOTA_CODE})`;
  if (reserved > 0 && limit < needed) {
    return [finding('fail', 'lambda concurrency', `quota ${limit}; the context reserves ${reserved} (${f.plan.apiReserved ?? 0} × ${f.plan.apiFunctions} API functions + ${f.plan.renderReserved ?? 0} render) and Lambda keeps ${LAMBDA_MIN_UNRESERVED} unreserved: ${ask(needed)}, or lower apiConcurrency/renderConcurrency`)];
  }
  if (limit < LAMBDA_DEFAULT_QUOTA) {
    return [finding('warn', 'lambda concurrency', `quota ${limit}, a new account's: a burst of jobs waits for capacity (up to an hour) before any fails, and no API reservation can be granted; ${ask(LAMBDA_DEFAULT_QUOTA)}`)];
  }
  const caps = reserved > 0 ? `; ${reserved} reserved by the context` : '; nothing reserved (-c apiConcurrency=N -c renderConcurrency=N protect the API from a burst of renders)';
  return [finding('ok', 'lambda concurrency', `quota ${limit}${caps}`)];
}

function bedrockFindings(f: DoctorFacts): Finding[] {
  const model = f.plan.bedrockModelId;
  if (f.plan.hookEngine !== 'bedrock') return [finding('ok', 'bedrock', `hooks are generated by the ${f.plan.hookEngine} engine: no model access needed`)];
  if (f.bedrock === 'ok') return [finding('ok', 'bedrock', `${model} answers in ${f.region}`)];
  if (f.bedrock && 'denied' in f.bedrock) return [finding('fail', 'bedrock', `${model} refused (${f.bedrock.denied}): enable it under Amazon Bedrock → Model access in ${f.region}`)];
  const why = f.bedrock ? f.bedrock.unavailable : 'not checked';
  return [finding('fail', 'bedrock', `${model} is not available in ${f.region} (${why}): pick a region that offers it, or -c bedrockHooksModelId=<a model offered there>`)];
}

export function diagnose(f: DoctorFacts): Finding[] {
  return [...regionFindings(f), ...dockerFindings(f), ...concurrencyFindings(f), ...bedrockFindings(f)];
}

export function report(findings: Finding[]): string {
  const mark: Record<Level, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };
  return findings.map((x) => `${mark[x.level]}  ${x.check}: ${x.says}`).join('\n');
}
