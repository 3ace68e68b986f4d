/**
 * The KMS key sealing social-provider credentials, read from the synthesised template: one retained key
 * with rotation, used by exactly the functions whose group declares `connectionKey`, with exactly the
 * actions that need names, and only under the cipher's encryption context.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { PIPELINE_FUNCTIONS, type PipelineFunction } from '../../../functions/pipeline/steps';
import { HANDLER_GROUPS, type FunctionNeeds, type HandlerGroup } from '../../../functions/routes';
import { ReactionStudioStack } from '../../../lib/cloud/reaction-studio-stack';
import { WORKERS, type WorkerName } from '../../../lib/cloud/workers';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Resource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: Json;
  Condition?: Json;
}

const ROOT = path.resolve(__dirname, '..', '..', '..');
const GROUPS = Object.keys(HANDLER_GROUPS) as HandlerGroup[];

let outdir: string;
let stack: ReactionStudioStack;
let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  const { context } = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdk.json'), 'utf8')) as { context: object };
  outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'reaction-studio-cdk-kms-'));
  const app = new App({ context, outdir });
  stack = new ReactionStudioStack(app, 'ReactionStudioKmsTest');
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources as Record<string, Resource>;
}, 300_000);

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const logicalId = (fn: { node: { defaultChild?: unknown } }) => Stack.of(stack).getLogicalId(fn.node.defaultChild as CfnFunction);
const actionsOf = (s: Statement) => (Array.isArray(s.Action) ? s.Action : [s.Action]);

function statementsOf(functionId: string): Statement[] {
  const roleId = resources[functionId]!.Properties.Role['Fn::GetAtt'][0] as string;
  return ofType('AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}

const kmsStatements = (functionId: string) => statementsOf(functionId).filter((s) => actionsOf(s).some((a) => a.startsWith('kms:')));

const keyId = () => {
  const keys = ofType('AWS::KMS::Key');
  expect(keys).toHaveLength(1);
  return keys[0]![0];
};

/** Every function of the stack with what it declared. */
function allFunctions(): { name: string; id: string; needs: FunctionNeeds['connectionKey'] }[] {
  return [
    ...GROUPS.map((g) => ({ name: `group ${g}`, id: logicalId(stack.api.functions[g]), needs: (HANDLER_GROUPS[g] as FunctionNeeds).connectionKey })),
    ...(Object.keys(WORKERS) as WorkerName[]).map((w) => ({
      name: `worker ${w}`,
      id: logicalId(stack.workers.functions[w]),
      needs: (WORKERS[w] as FunctionNeeds).connectionKey,
    })),
    ...(Object.keys(PIPELINE_FUNCTIONS) as PipelineFunction[]).map((p) => ({
      name: `pipeline ${p}`,
      id: logicalId(stack.jobs.functions[p]),
      needs: (PIPELINE_FUNCTIONS[p] as FunctionNeeds).connectionKey,
    })),
  ];
}

describe('the connection key', () => {
  test('is one symmetric KMS key with automatic rotation that survives the deletion of the stack', () => {
    const key = resources[keyId()]!;
    expect(key.Properties).toMatchObject({ EnableKeyRotation: true });
    expect(key.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
    expect(key.DeletionPolicy).toBe('Retain');
    expect(key.UpdateReplacePolicy).toBe('Retain');
  });

  test('is named by a stack output, for the admin CLI', () => {
    template.hasOutput('ConnectionKeyArn', { Value: { 'Fn::GetAtt': [keyId(), 'Arn'] } });
  });

  test('the social function may make and unwrap data keys; the analytics function may only unwrap', () => {
    expect(HANDLER_GROUPS.social.connectionKey).toBe('encrypt-decrypt');
    expect(HANDLER_GROUPS.analytics.connectionKey).toBe('decrypt');
    const social = kmsStatements(logicalId(stack.api.functions.social));
    const analytics = kmsStatements(logicalId(stack.api.functions.analytics));
    expect(social.flatMap(actionsOf).sort()).toEqual(['kms:Decrypt', 'kms:GenerateDataKey']);
    expect(analytics.flatMap(actionsOf)).toEqual(['kms:Decrypt']);
  });

  test.each(['social', 'analytics'] as const)('the %s grant is on that key only, under the cipher\'s encryption context', (group) => {
    const statements = kmsStatements(logicalId(stack.api.functions[group]));
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
      const env = resources[logicalId(stack.api.functions[group])]!.Properties.Environment.Variables;
      expect(env.CONNECTION_KEY_ID).toEqual({ 'Fn::GetAtt': [keyId(), 'Arn'] });
      expect(env).not.toHaveProperty('CONNECTION_KEY_FILE');
    }
  });

  test('no other function gets any KMS action or the key\'s ARN', () => {
    const others = allFunctions().filter((f) => f.needs === undefined);
    expect(others.length).toBeGreaterThan(5);
    for (const { name, id } of others) {
      expect({ name, kms: kmsStatements(id).flatMap(actionsOf) }).toEqual({ name, kms: [] });
      expect({ name, env: resources[id]!.Properties.Environment.Variables.CONNECTION_KEY_ID }).toEqual({ name, env: undefined });
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
