/**
 * cdk-nag: the rule packs the stack is held to (the template tests run them and expect no finding),
 * and the one way a construct acknowledges a finding it keeps on purpose, with the reason beside it.
 */
import { CfnResource, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks, type NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export const nagPacks = (): NagPack[] => [new AwsSolutionsChecks(undefined, { verbose: true }), new ServerlessChecks(undefined, { verbose: true })];

/** Acknowledges findings on `scope` and everything below it; keys are finding ids, values one-line reasons. */
export function acknowledge(scope: IConstruct, findings: Readonly<Record<string, string>>): void {
  Validations.of(scope).acknowledge(...Object.entries(findings).map(([id, reason]) => ({ id, reason })));
}

/**
 * How a finding id names a resource's ARN (`<LogicalId.Arn>`): cdk-nag v3 acknowledges each wildcard
 * finding by its exact text, which holds the logical id.
 */
export function arnToken(resource: IConstruct): string {
  const cfn = CfnResource.isCfnResource(resource) ? resource : resource.node.defaultChild;
  if (!cfn || !CfnResource.isCfnResource(cfn)) throw new Error(`${resource.node.path} has no CloudFormation resource`);
  return `<${Stack.of(cfn).getLogicalId(cfn)}.Arn>`;
}
