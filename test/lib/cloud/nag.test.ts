/**
 * cdk-nag's AwsSolutions and Serverless packs over the whole synthesised stack: no finding may stand
 * unless the construct it concerns acknowledges it with a reason (lib/cloud/nag.ts).
 */
import { Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import { acknowledge, nagPacks } from '#cloud/nag';
import { useSynthesisedStack } from '#test-support/cdk-template';

const synthesis = useSynthesisedStack('ReactionStudioNagTest');

/** `severity rule: path, path` per finding, the stack's name left out. */
function findings(scope: IConstruct): string[] {
  return nagPacks().flatMap((pack) =>
    pack.validateScope(scope).violations.map((v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`),
  );
}

/** Every acknowledgement recorded below `scope`: rule id and reason. */
function acknowledgements(scope: IConstruct): { path: string; id: string; reason: unknown }[] {
  return scope.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) => Object.entries(m.data as Record<string, unknown>).map(([id, reason]) => ({ path: c.node.path, id, reason }))),
  );
}

describe('cdk-nag (AwsSolutions and Serverless)', () => {
  test('reports no unacknowledged error or warning on the stack', () => {
    expect(findings(synthesis.current.stack)).toEqual([]);
  });

  test('every acknowledgement names one rule and gives a one-line reason', () => {
    const all = acknowledgements(synthesis.current.stack);
    expect(all.length).toBeGreaterThan(0);
    for (const { id, reason } of all) {
      expect(id).toMatch(/(AwsSolutions|Serverless)-[A-Za-z0-9]+(\[.+\])?$/);
      expect(typeof reason === 'string' && reason.length > 20 && !reason.includes('\n')).toBe(true);
    }
  });

  test('the packs do report: an unlogged bucket is a finding until it is acknowledged', () => {
    const stack = new Stack();
    const bucket = new s3.Bucket(stack, 'Plain', { enforceSSL: true });
    expect(findings(stack)).toEqual(expect.arrayContaining([expect.stringMatching(/^error AwsSolutions-S1: .*Plain/)]));
    acknowledge(bucket, { 'AwsSolutions-S1': 'a test bucket that nobody reads' });
    expect(findings(stack).filter((f) => f.includes('AwsSolutions-S1'))).toEqual([]);
  });
});
