/**
 * cdk-nag: the rule packs the stack is held to (the template tests run them and expect no finding),
 * and the one way a construct acknowledges a finding it keeps on purpose, with the reason beside it.
 */
import { CfnResource, Stack, Token, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks, type NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export const nagPacks = (): NagPack[] => [new AwsSolutionsChecks(undefined, { verbose: true }), new ServerlessChecks(undefined, { verbose: true })];

/** Acknowledges findings on `scope` and everything below it; keys are finding ids, values one-line reasons. */
/**
 * The start of an ARN in this stack (`arn:<partition>:<service>:<region>:<account>`) as cdk-nag writes
 * it in a finding: a pseudo parameter is <AWS::X> while it is a token, its value once the stack's env
 * sets it (a deploy with a region and account), so one acknowledgement fits both.
 */
export function nagArnHead(scope: IConstruct, service: string): string {
  const stack = Stack.of(scope);
  const named = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
  return `arn:${named(stack.partition, 'Partition')}:${service}:${named(stack.region, 'Region')}:${named(stack.account, 'AccountId')}`;
}

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
