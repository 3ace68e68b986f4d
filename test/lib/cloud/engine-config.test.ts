/** Engine choices come from CDK context; each gives exactly the settings and grants it needs. */
import { App } from 'aws-cdk-lib';
import { engineConfigFromContext } from '#cloud/engine-config';
import { FAL_KEY_SECRET_ARN as FAL_SECRET, VARIANTS } from '#test-support/synthesis-cache';
import { actionsOf, resourcesOf, roleStatements, synthesisedStack, synthesisedVariant, type Json, type Synthesised } from '#test-support/cdk-template';

/** What the tests read of a synthesis: the functions' settings and grants, by logical id. */
function readers({ resources, ids }: Pick<Synthesised, 'resources' | 'ids'>) {
  const env = (id: string) => resources[id]!.Properties.Environment.Variables as Record<string, unknown>;
  const actions = (id: string) => roleStatements(resources, id).map((s) => ({ actions: actionsOf(s), resources: resourcesOf(s) }));
  // Every function that reaches the bucket reads the media signing key (media-delivery.ts): not an engine's secret.
  const mediaKey = JSON.stringify({ Ref: ids.delivery.signingKey });
  const engineResources = (statements: { actions: string[]; resources: Json[] }[], prefix: string) =>
    statements.filter((st) => st.actions.some((a) => a.startsWith(prefix))).flatMap((st) => st.resources).filter((r) => JSON.stringify(r) !== mediaKey);
  return { ids, env, actions, engineResources };
}

describe('engine configuration of a deployment', () => {
  test('by default every capability is local, and no function may call Bedrock or read an engine secret', () => {
    // The deployment the other template tests read: cdk.json's context, which chooses no engine.
    const { ids, env, actions, engineResources } = readers(synthesisedStack());
    expect(env(ids.api.functions.hooks)).toMatchObject({ HOOK_ENGINE: 'local' });
    expect(env(ids.api.functions.avatars)).toMatchObject({ AVATAR_ENGINE: 'local' });
    expect(env(ids.workers.functions['generate-avatar'])).toMatchObject({ AVATAR_ENGINE: 'local' });
    const all = [...Object.values(ids.api.functions), ...Object.values(ids.workers.functions)].flatMap((id) => actions(id));
    expect(all.flatMap((s) => s.actions).filter((a) => a.startsWith('bedrock:'))).toEqual([]);
    expect(engineResources(all, 'secretsmanager:')).toEqual([]);
  });

  test('hooks on Bedrock and avatars on fal: the hosted callers get their model and key, nothing more', () => {
    // Synthesised by the global setup with the app (test/support/app-synthesis.ts).
    expect(VARIANTS.hostedEngines).toEqual({ hookEngine: 'bedrock', avatarEngine: 'fal', falKeySecretArn: FAL_SECRET });
    const { ids, env, actions, engineResources } = readers(synthesisedVariant('hostedEngines'));
    expect(env(ids.api.functions.hooks)).toMatchObject({ HOOK_ENGINE: 'bedrock', BEDROCK_HOOKS_MODEL_ID: 'us.amazon.nova-lite-v1:0' });
    const bedrock = actions(ids.api.functions.hooks).filter((s) => s.actions.includes('bedrock:InvokeModel'));
    expect(bedrock).toHaveLength(1);
    expect(JSON.stringify(bedrock[0]!.resources)).toMatch(/inference-profile\/us\.amazon\.nova-lite-v1:0/);
    expect(JSON.stringify(bedrock[0]!.resources)).toMatch(/foundation-model\/amazon\.nova-lite-v1:0/);

    const worker = ids.workers.functions['generate-avatar'];
    expect(env(worker)).toMatchObject({ AVATAR_ENGINE: 'fal', FAL_KEY_SECRET_ARN: FAL_SECRET });
    expect(engineResources(actions(worker), 'secretsmanager:GetSecretValue')).toEqual([FAL_SECRET]);

    // The API function only learns that generation is hosted (and goes to the background); it never holds the key.
    expect(env(ids.api.functions.avatars)).toMatchObject({ AVATAR_ENGINE: 'fal' });
    expect(env(ids.api.functions.avatars)).not.toHaveProperty('FAL_KEY_SECRET_ARN');
    expect(engineResources(actions(ids.api.functions.avatars), 'secretsmanager:')).toEqual([]);
  });

  test('a fal engine without its key, or an unknown engine, refuses to synthesise', () => {
    const app = (context: Record<string, string>) => new App({ context });
    expect(() => engineConfigFromContext(app({ avatarEngine: 'fal' }))).toThrow(/falKeySecretArn/);
    expect(() => engineConfigFromContext(app({ hookEngine: 'gpt' }))).toThrow(/hookEngine=gpt is not one of local, bedrock/);
  });
});
