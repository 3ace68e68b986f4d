/** The CDK app (`npm run synth`, `npm run deploy`): one stack, named by STACK_NAME. */
import { App } from 'aws-cdk-lib';
import { ReactionStudioStack } from '#cloud/reaction-studio-stack';

const app = new App();

new ReactionStudioStack(app, process.env.STACK_NAME || 'ReactionStudio', {
  description: 'Reaction Studio: reaction-video generation API',
  // Account and region come from the deploying credentials; synth needs neither.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

app.synth();
