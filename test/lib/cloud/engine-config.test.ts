/** Engine choices come from CDK context; each gives exactly the settings and grants it needs. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { ReactionStudioStack } from '#cloud/reaction-studio-stack';
import { engineConfigFromContext } from '#cloud/engine-config';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FAL_SECRET = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:fal-key-AbCdEf';
type Json = any;

function synth(extra: Record<string, string>) {
  const { context } = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { context: object };
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'reaction-studio-engines-'));
  const app = new App({ context: { ...context, ...extra }, outdir });
  const stack = new ReactionStudioStack(app, 'EnginesTest');
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, { Type: string; Properties: Json }>;
  const idOf = (fn: { node: { defaultChild?: unknown } }) => Stack.of(stack).getLogicalId(fn.node.defaultChild as CfnFunction);
  const env = (fn: { node: { defaultChild?: unknown } }) => resources[idOf(fn)]!.Properties.Environment.Variables as Record<string, unknown>;
  const actions = (fn: { node: { defaultChild?: unknown } }) => {
    const roleId = resources[idOf(fn)]!.Properties.Role['Fn::GetAtt'][0];
    return Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as Json[]).some((role) => role.Ref === roleId))
      .flatMap((r) => r.Properties.PolicyDocument.Statement as Json[])
      .map((s) => ({ actions: [s.Action].flat() as string[], resources: [s.Resource].flat() }));
  };
  fs.rmSync(outdir, { recursive: true, force: true });
  // Every function that reaches the bucket reads the media signing key (media-delivery.ts): not an engine's secret.
  const mediaKey = JSON.stringify({ Ref: Stack.of(stack).getLogicalId(stack.delivery.signingKey.node.defaultChild as CfnSecret) });
  const engineResources = (statements: { actions: string[]; resources: Json[] }[], prefix: string) =>
    statements.filter((st) => st.actions.some((a) => a.startsWith(prefix))).flatMap((st) => st.resources).filter((r) => JSON.stringify(r) !== mediaKey);
  return { stack, env, actions, engineResources };
}

describe('engine configuration of a deployment', () => {
  test('by default every capability is local, and no function may call Bedrock or read an engine secret', () => {
    const { stack, env, actions, engineResources } = synth({});
    expect(env(stack.api.functions.hooks)).toMatchObject({ HOOK_ENGINE: 'local' });
    expect(env(stack.api.functions.avatars)).toMatchObject({ AVATAR_ENGINE: 'local' });
    expect(env(stack.workers.functions['generate-avatar'])).toMatchObject({ AVATAR_ENGINE: 'local' });
    const all = [...Object.values(stack.api.functions), ...Object.values(stack.workers.functions)].flatMap((fn) => actions(fn));
    expect(all.flatMap((s) => s.actions).filter((a) => a.startsWith('bedrock:'))).toEqual([]);
    expect(engineResources(all, 'secretsmanager:')).toEqual([]);
  }, 120_000);

  test('hooks on Bedrock and avatars on fal: the hosted callers get their model and key, nothing more', () => {
    const { stack, env, actions, engineResources } = synth({ hookEngine: 'bedrock', avatarEngine: 'fal', falKeySecretArn: FAL_SECRET });
    expect(env(stack.api.functions.hooks)).toMatchObject({ HOOK_ENGINE: 'bedrock', BEDROCK_HOOKS_MODEL_ID: 'us.amazon.nova-lite-v1:0' });
    const bedrock = actions(stack.api.functions.hooks).filter((s) => s.actions.includes('bedrock:InvokeModel'));
    expect(bedrock).toHaveLength(1);
    expect(JSON.stringify(bedrock[0]!.resources)).toMatch(/inference-profile\/us\.amazon\.nova-lite-v1:0/);
    expect(JSON.stringify(bedrock[0]!.resources)).toMatch(/foundation-model\/amazon\.nova-lite-v1:0/);

    const worker = stack.workers.functions['generate-avatar'];
    expect(env(worker)).toMatchObject({ AVATAR_ENGINE: 'fal', FAL_KEY_SECRET_ARN: FAL_SECRET });
    expect(engineResources(actions(worker), 'secretsmanager:GetSecretValue')).toEqual([FAL_SECRET]);

    // The API function only learns that generation is hosted (and goes to the background); it never holds the key.
    expect(env(stack.api.functions.avatars)).toMatchObject({ AVATAR_ENGINE: 'fal' });
    expect(env(stack.api.functions.avatars)).not.toHaveProperty('FAL_KEY_SECRET_ARN');
    expect(engineResources(actions(stack.api.functions.avatars), 'secretsmanager:')).toEqual([]);
  }, 120_000);

  test('a fal engine without its key, or an unknown engine, refuses to synthesise', () => {
    const app = (context: Record<string, string>) => new App({ context });
    expect(() => engineConfigFromContext(app({ avatarEngine: 'fal' }))).toThrow(/falKeySecretArn/);
    expect(() => engineConfigFromContext(app({ hookEngine: 'gpt' }))).toThrow(/hookEngine=gpt is not one of local, bedrock/);
  });
});
