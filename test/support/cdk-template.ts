/**
 * The stack synthesised as `cdk synth` would (same context from cdk.json), and the small readers the
 * template tests share: resources by type, a function's logical id, the statements its role holds.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { ReactionStudioStack } from '#cloud/reaction-studio-stack';

export type Json = any;
export interface Resource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}
export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: Json;
  Condition?: Json;
}

const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface Synthesised {
  stack: ReactionStudioStack;
  template: Template;
  resources: Record<string, Resource>;
  /** The cloud assembly folder: staged assets (bundles, layers) are read from here. */
  outdir: string;
  /** Removes the assembly folder (bundles included). */
  remove(): void;
}

/** Builds the whole stack once (every function is bundled with esbuild on the way). */
function synthesiseStack(id: string): Synthesised {
  // The same feature flags as `cdk synth`, so the template under test is the one that deploys.
  const { context } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: object };
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `${id.toLowerCase()}-`));
  const stack = new ReactionStudioStack(new App({ context, outdir }), id);
  const template = Template.fromStack(stack);
  return {
    stack,
    template,
    resources: template.toJSON().Resources as Record<string, Resource>,
    outdir,
    remove: () => fs.rmSync(outdir, { recursive: true, force: true }),
  };
}

/** One synthesis for a test file: built before its tests, removed after. Read `.current` inside tests. */
export function useSynthesisedStack(id: string, timeoutMs = 300_000): { readonly current: Synthesised } {
  const holder = {} as { current: Synthesised };
  beforeAll(() => {
    holder.current = synthesiseStack(id);
  }, timeoutMs);
  afterAll(() => holder.current?.remove());
  return holder;
}

export const resourcesOfType = (resources: Record<string, Resource>, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

export const logicalIdOf = (stack: Stack, fn: { node: { defaultChild?: unknown } }) => stack.getLogicalId(fn.node.defaultChild as CfnFunction);

/** Every statement of every policy attached to the function's role. */
export function roleStatements(resources: Record<string, Resource>, functionId: string): Statement[] {
  const fn = resources[functionId];
  if (fn?.Type !== 'AWS::Lambda::Function') throw new Error(`${functionId} is not a Lambda function`);
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  return resourcesOfType(resources, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as Json[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as Statement[]);
}

export const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action]);
export const resourcesOf = (s: Statement): Json[] => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]);

/** The logical ids a template value refers to (Ref and Fn::GetAtt, however deeply nested). */
export function referencedIds(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedIds);
  if (value && typeof value === 'object') {
    if (typeof value.Ref === 'string') return [value.Ref];
    if (Array.isArray(value['Fn::GetAtt'])) return [value['Fn::GetAtt'][0]];
    return Object.values(value).flatMap(referencedIds);
  }
  return [];
}
