/**
 * The app as the template suites read it, synthesised once per run by the jest global setup
 * (test/support/global/synthesis.ts), and the small readers they share: resources by type, the
 * statements a function's role holds, the logical ids a value refers to.
 */
import * as fs from 'node:fs';
import { Template } from 'aws-cdk-lib/assertions';
import { entryFiles, SYNTHESIS_ENV, type LogicalIds, type NagReport, type SynthesisIndex, type VariantName } from './synthesis-cache';

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

export interface Synthesised {
  /** For the assertions API (parsed on first use). */
  readonly template: Template;
  resources: Record<string, Resource>;
  outputs: Record<string, Json>;
  /** Logical ids where the stack keeps the constructs: `stack.api.functions.usage` is `ids.api.functions.usage`. */
  ids: LogicalIds;
  /** cdk-nag's AwsSolutions and Serverless packs over the stack. */
  nag: NagReport;
  /**
   * The cloud assembly: the staged assets (every bundle; a stand-in file for each layer tree). Shared by
   * every suite and later runs: read it, never write to it.
   */
  outdir: string;
}

let loaded: Synthesised | undefined;

function synthesisEntry(): ReturnType<typeof entryFiles> {
  const entry = process.env[SYNTHESIS_ENV];
  if (!entry) throw new Error(`${SYNTHESIS_ENV} is not set: the jest global setup (test/support/global/synthesis.ts) synthesises the app when a suite that calls synthesisedStack() runs`);
  return entryFiles(entry);
}

export function synthesisedStack(): Synthesised {
  if (loaded) return loaded;
  const files = synthesisEntry();
  const json = JSON.parse(fs.readFileSync(files.template, 'utf8')) as { Resources: Record<string, Resource>; Outputs: Record<string, Json> };
  const index = JSON.parse(fs.readFileSync(files.index, 'utf8')) as SynthesisIndex;
  let template: Template | undefined;
  loaded = {
    get template() {
      return (template ??= Template.fromJSON(json));
    },
    resources: json.Resources,
    outputs: json.Outputs,
    ids: index.logicalIds,
    nag: index.nag,
    outdir: files.assembly,
  };
  return loaded;
}

/** A deployment choice (synthesis-cache.ts, VARIANTS) as the global setup synthesised it with the app: its resources and logical ids. */
export function synthesisedVariant(name: VariantName): Pick<Synthesised, 'resources' | 'ids'> {
  return JSON.parse(fs.readFileSync(synthesisEntry().variant(name), 'utf8')) as Pick<Synthesised, 'resources' | 'ids'>;
}

export const resourcesOfType = (resources: Record<string, Resource>, type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

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
