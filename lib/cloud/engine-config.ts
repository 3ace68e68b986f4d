/**
 * Which generation engines a deployment uses, from CDK context (`cdk deploy -c hookEngine=bedrock
 * -c falKeySecretArn=arn:...`), and what each choice gives the functions that generate: the
 * environment the engine registry reads and exactly the permissions the hosted adapters need.
 */
import { Arn, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secrets from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ENGINE_SETTINGS, type EngineName } from '#adapters/engines/registry';

export type EngineCapability = keyof typeof ENGINE_SETTINGS;

export interface EngineConfig {
  avatar: EngineName<'avatar'>;
  reaction: EngineName<'reaction'>;
  hooks: EngineName<'hooks'>;
  /** Secrets Manager secret holding the fal.ai key (required when an engine is `fal`). */
  falKeySecretArn?: string;
  bedrockModelId: string;
}

export const DEFAULT_BEDROCK_HOOKS_MODEL = 'us.amazon.nova-lite-v1:0';

export function engineConfigFromContext(scope: Construct): EngineConfig {
  const read = <C extends EngineCapability>(capability: C, key: string): EngineName<C> => {
    const value = (scope.node.tryGetContext(key) as string | undefined) ?? 'local';
    const choices = ENGINE_SETTINGS[capability].choices as readonly string[];
    if (!choices.includes(value)) throw new Error(`context ${key}=${value} is not one of ${choices.join(', ')}`);
    return value as EngineName<C>;
  };
  const config: EngineConfig = {
    avatar: read('avatar', 'avatarEngine'),
    reaction: read('reaction', 'reactionEngine'),
    hooks: read('hooks', 'hookEngine'),
    falKeySecretArn: scope.node.tryGetContext('falKeySecretArn') as string | undefined,
    bedrockModelId: (scope.node.tryGetContext('bedrockHooksModelId') as string | undefined) ?? DEFAULT_BEDROCK_HOOKS_MODEL,
  };
  if ((config.avatar === 'fal' || config.reaction === 'fal') && !config.falKeySecretArn) {
    throw new Error('a fal engine needs -c falKeySecretArn=<Secrets Manager ARN of the fal.ai key>');
  }
  return config;
}

/** Tells a function which engine serves a capability, without letting it call a hosted one. */
export function applyEngineChoices(fn: lambda.Function, capabilities: readonly EngineCapability[], config: EngineConfig): void {
  for (const capability of capabilities) fn.addEnvironment(ENGINE_SETTINGS[capability].env, config[capability]);
}

/** Gives a function the engine settings of the capabilities it calls, and the grants they need. */
export function applyEngineConfig(fn: lambda.Function, capabilities: readonly EngineCapability[], config: EngineConfig): void {
  for (const capability of capabilities) {
    const choice = config[capability];
    fn.addEnvironment(ENGINE_SETTINGS[capability].env, choice);
    if (choice === 'fal') {
      fn.addEnvironment('FAL_KEY_SECRET_ARN', config.falKeySecretArn!);
      secrets.Secret.fromSecretCompleteArn(fn, `FalKey${capability}`, config.falKeySecretArn!).grantRead(fn);
    }
    if (choice === 'bedrock') {
      fn.addEnvironment('BEDROCK_HOOKS_MODEL_ID', config.bedrockModelId);
      const stack = Stack.of(fn);
      // An inference profile routes to the model in several regions: the grant covers the profile
      // and the foundation model it fronts, in any region, and nothing else.
      const modelName = config.bedrockModelId.replace(/^(us|eu|apac|global)\./, '');
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['bedrock:InvokeModel'],
          resources: [
            Arn.format({ service: 'bedrock', resource: 'inference-profile', resourceName: config.bedrockModelId }, stack),
            `arn:${stack.partition}:bedrock:*::foundation-model/${modelName}`,
          ],
        }),
      );
    }
  }
}
