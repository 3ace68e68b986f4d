/** The CDK app (`npm run synth`, `npm run deploy`): one stack, named by STACK_NAME. */
import { App, Validations } from 'aws-cdk-lib';
import { ReactionStudioStack } from '#cloud/reaction-studio-stack';
import { nagPacks } from '#cloud/nag';
import { buildStudioSync } from '#local/studio-build';

// The studio's pages are uploaded from studio/dist: built here when missing or stale.
buildStudioSync();
const app = new App();
// cdk-nag's AwsSolutions and Serverless packs: a synth with an unacknowledged finding fails (as the template tests do).
Validations.of(app).addPlugins(...nagPacks());

new ReactionStudioStack(app, process.env.STACK_NAME || 'ReactionStudio', {
  description: 'Reaction Studio: reaction-video generation API',
  // Account and region come from the deploying credentials; synth needs neither.
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});

app.synth();
