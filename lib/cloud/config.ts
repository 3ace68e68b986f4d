/**
 * The CDK app's configuration (bin/app.ts): the one read of `process.env` for synth and deploy (a lint
 * rule keeps every other module from reading it).
 */
import type { Environment } from '#functions/config';

export interface AppConfig {
  stackName: string;
  /** From the deploying credentials (the CDK CLI sets them); synth needs neither. */
  account?: string;
  region?: string;
}

const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;

export function appConfig(env: Environment = process.env): AppConfig {
  const stackName = env.STACK_NAME || 'ReactionStudio';
  // CloudFormation's own rule, checked before a synth that would fail at deploy.
  if (!STACK_NAME.test(stackName)) throw new Error(`environment variable STACK_NAME must be a CloudFormation stack name (a letter, then letters, digits and hyphens), not ${stackName}`);
  return { stackName, account: env.CDK_DEFAULT_ACCOUNT || undefined, region: env.CDK_DEFAULT_REGION || undefined };
}
