/** The CDK app (`npm run synth`, `npm run deploy`): one stack, named by STACK_NAME. */
import { App, Validations } from 'aws-cdk-lib';
import { ReactionStudioStack } from '#cloud/reaction-studio-stack';
import { nagPacks } from '#cloud/nag';
import { buildStudioSync } from '#local/studio-build';
import { appConfig } from '#cloud/config';

// The studio's pages are uploaded from studio/dist: built here when missing or stale.
buildStudioSync();
const app = new App();
// cdk-nag's AwsSolutions and Serverless packs: a synth with an unacknowledged finding fails (as the template tests do).
Validations.of(app).addPlugins(...nagPacks());

const config = appConfig();
new ReactionStudioStack(app, config.stackName, {
  description: 'Reaction Studio: reaction-video generation API',
  env: { account: config.account, region: config.region },
});

app.synth();
