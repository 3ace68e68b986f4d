/**
 * The KMS key sealing social-provider credentials, read from the synthesised template: one retained key
 * with rotation, used by exactly the functions whose group declares `connectionKey`, with exactly the
 * actions that need names, and only under the cipher's encryption context.
 */
import { HANDLER_GROUPS, type FunctionNeeds, type HandlerGroup } from '#functions/routes';
import { PIPELINE_FUNCTIONS, type PipelineFunction } from '#pipeline/steps';
import { WORKERS, type WorkerName } from '#cloud/workers';
import { actionsOf, resourcesOfType, roleStatements, synthesisedStack, type Statement } from '#test-support/cdk-template';

const GROUPS = Object.keys(HANDLER_GROUPS) as HandlerGroup[];

const synthesis = synthesisedStack();
const { ids } = synthesis;

const ofType = (type: string) => resourcesOfType(synthesis.resources, type);
const statementsOf = (functionId: string) => roleStatements(synthesis.resources, functionId);

const kmsStatements = (functionId: string) => statementsOf(functionId).filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')));

/** The connection key among the stack's KMS keys (the alarm topic has its own). */
const keyId = () => {
  const id = ids.data.connectionKey;
  expect(ofType('AWS::KMS::Key').map(([key]) => key)).toContain(id);
  return id;
};

/** Every function of the stack with what it declared. */
function allFunctions(): { name: string; id: string; needs: FunctionNeeds['connectionKey'] }[] {
  return [
    ...GROUPS.map((g) => ({ name: `group ${g}`, id: ids.api.functions[g], needs: (HANDLER_GROUPS[g] as FunctionNeeds).connectionKey })),
    ...(Object.keys(WORKERS) as WorkerName[]).map((w) => ({
      name: `worker ${w}`,
      id: ids.workers.functions[w],
      needs: (WORKERS[w] as FunctionNeeds).connectionKey,
    })),
    ...(Object.keys(PIPELINE_FUNCTIONS) as PipelineFunction[]).map((p) => ({
      name: `pipeline ${p}`,
      id: ids.jobs.functions[p],
      needs: (PIPELINE_FUNCTIONS[p] as FunctionNeeds).connectionKey,
    })),
  ];
}

describe('the connection key', () => {
  test('is one symmetric KMS key with automatic rotation that survives the deletion of the stack', () => {
    const key = synthesis.resources[keyId()]!;
    expect(key.Properties).toMatchObject({ EnableKeyRotation: true });
    expect(key.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(key.DeletionPolicy).toBe('Retain');
    expect(key.UpdateReplacePolicy).toBe('Retain');
  });

  test('is named by a stack output, for the admin CLI', () => {
    synthesis.template.hasOutput('ConnectionKeyArn', { Value: { 'Fn::GetAtt': [keyId(), 'Arn'] } });
  });

  test('the social function may make and unwrap data keys; the analytics function may only unwrap', () => {
    expect(HANDLER_GROUPS.social.connectionKey).toBe('encrypt-decrypt');
    expect(HANDLER_GROUPS.analytics.connectionKey).toBe('decrypt');
    const social = kmsStatements(ids.api.functions.social);
    const analytics = kmsStatements(ids.api.functions.analytics);
    expect(social.flatMap(actionsOf).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    expect(analytics.flatMap(actionsOf)).toEqual(['kms:Decrypt']);
  });

  test.each(['social', 'analytics'] as const)('the %s grant is on that key only, under the cipher\'s encryption context', (group) => {
    const statements = kmsStatements(ids.api.functions[group]);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      expect(s.Effect).toBe('Allow');
      expect(s.Resource).toEqual({ 'Fn::GetAtt': [keyId(), 'Arn'] });
      expect(s.Condition).toEqual({
        'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': ['account_id', 'provider'] },
        Null: { 'kms:EncryptionContext:account_id': 'false', 'kms:EncryptionContext:provider': 'false' },
      });
    }
  });

  test('functions that use the key are told its ARN', () => {
    for (const group of ['social', 'analytics'] as const) {
      const env = synthesis.resources[ids.api.functions[group]]!.Properties.Environment.Variables;
      expect(env.CONNECTION_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId(), 'Arn'] });
      expect(env).not.toHaveProperty('CONNECTION_KEY_FILE');
    }
  });

  test('no other function gets any KMS action or the key\'s ARN', () => {
    const others = allFunctions().filter((f) => f.needs === undefined);
    expect(others.length).toBeGreaterThan(5);
    for (const { name, id } of others) {
      expect({ name, kms: kmsStatements(id).flatMap(actionsOf) }).toEqual({ name, kms: [] });
      expect({ name, env: synthesis.resources[id]!.Properties.Environment.Variables.CONNECTION_KEY_ID }).toEqual({ name, env: undefined });
    }
  });

  test('no policy attached to any role allows kms:* or an action on every key', () => {
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      for (const s of policy.Properties.PolicyDocument.Statement as Statement[]) {
        if (!actionsOf(s).some((a) => a.startsWith('kms:'))) continue;
        expect(actionsOf(s)).not.toContain('kms:*');
        expect(s.Resource).not.toBe('*');
      }
    }
  });
});
