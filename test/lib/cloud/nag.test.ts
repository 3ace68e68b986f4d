/**
 * cdk-nag's AwsSolutions and Serverless packs over the whole synthesised stack: no finding may stand
 * unless the construct it concerns acknowledges it with a reason (lib/cloud/nag.ts). The packs run
 * where the stack is synthesised (test/support/app-synthesis.ts), which records what they found.
 */
import { App, Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { acknowledge, nagArnHead } from '#cloud/nag';
import { synthesisedStack } from '#test-support/cdk-template';
import { nagFindings } from '#test-support/nag-findings';

const synthesis = synthesisedStack();

describe('cdk-nag (AwsSolutions and Serverless)', () => {
  test('reports no unacknowledged error or warning on the stack', () => {
    expect(synthesis.nag.findings).toEqual([]);
  });

  test('every acknowledgement names one rule and gives a one-line reason', () => {
    const all = synthesis.nag.acknowledgements;
    expect(all.length).toBeGreaterThan(0);
    for (const { id, reason } of all) {
      expect(id).toMatch(/(AwsSolutions|Serverless)-[A-Za-z0-9]+(\[.+\])?$/);
      expect(typeof reason === 'string' && reason.length > 20 && !reason.includes('\n')).toBe(true);
    }
  });

  test('the packs do report: an unlogged bucket is a finding until it is acknowledged', () => {
    const stack = new Stack();
    const bucket = new s3.Bucket(stack, 'Plain', { enforceSSL: true });
    expect(nagFindings(stack)).toEqual(expect.arrayContaining([expect.stringMatching(/^error AwsSolutions-S1: .*Plain/)]));
    acknowledge(bucket, { 'AwsSolutions-S1': 'a test bucket that nobody reads' });
    expect(nagFindings(stack).filter((f) => f.includes('AwsSolutions-S1'))).toEqual([]);
  });
});

describe('an acknowledged ARN as cdk-nag names it', () => {
  test('pseudo parameters while the stack has no env; the region and account by their values once it has one (`cdk synth` sets CDK_DEFAULT_REGION)', () => {
    const app = new App();
    expect(nagArnHead(new Stack(app, 'Agnostic'), 'ses')).toBe('arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>');
    expect(nagArnHead(new Stack(app, 'Regional', { env: { region: 'us-east-1' } }), 'execute-api')).toBe('arn:<AWS::Partition>:execute-api:us-east-1:<AWS::AccountId>');
    expect(nagArnHead(new Stack(app, 'Pinned', { env: { region: 'eu-west-1', account: '123456789012' } }), 'ses')).toBe('arn:<AWS::Partition>:ses:eu-west-1:123456789012');
  });
});
