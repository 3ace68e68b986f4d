import * as lambda from 'aws-cdk-lib/aws-lambda';

/** Every function and layer: the newest Node.js runtime Lambda offers in this aws-cdk-lib. */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;
