/** The CDK app's name and target come from the environment, checked before a synth. */
import { appConfig } from '#cloud/config';

test('the default stack name, and the deploying credentials\' account and region when the CLI sets them', () => {
  expect(appConfig({})).toEqual({ stackName: 'ReactionStudio', account: undefined, region: undefined });
  expect(appConfig({ STACK_NAME: 'Studio-Staging', CDK_DEFAULT_ACCOUNT: '123456789012', CDK_DEFAULT_REGION: 'eu-west-1' })).toEqual({
    stackName: 'Studio-Staging',
    account: '123456789012',
    region: 'eu-west-1',
  });
});

test('a stack name CloudFormation would refuse is named before anything is synthesised', () => {
  expect(() => appConfig({ STACK_NAME: 'my stack' })).toThrow(/STACK_NAME must be a CloudFormation stack name.*not my stack/);
});
