/**
 * Media delivery that outlasts the functions' credentials: a CloudFront distribution in front of the
 * media bucket (origin access control, so the bucket stays private) that serves only URLs signed with
 * the stack's own key. S3 presigned URLs die with the Lambda role's session (hours); these live until
 * their own expiry, so a post scheduled a week ahead still has its media.
 *
 * The private key is made at deploy time by a custom resource and kept in a Secrets Manager secret that
 * only the functions handing out links may read; CloudFront holds the public key.
 */
import * as path from 'node:path';
import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as nodejs from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { RESPONSE_CONTENT_DISPOSITION } from '#adapters/cloudfront/signed-links';
import { PUBLIC_KEY_ATTRIBUTE } from '#adapters/cloudfront/signing-key';
import { MEDIA_CDN_ENV } from '#functions/config';
import { lambdaBundlingProps } from './bundling';
import { acknowledge, arnToken } from './nag';
import { LAMBDA_RUNTIME } from './runtime';
import { PROJECT_ROOT } from './service-function';

export interface MediaDeliveryProps {
  bucket: s3.IBucket;
}

/** As long as the bucket's own access logs (media.ts). */
const LOG_RETENTION = Duration.days(90);

export class MediaDelivery extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly signingKey: secretsmanager.Secret;
  readonly publicKey: cloudfront.PublicKey;
  readonly logs: s3.Bucket;

  constructor(scope: Construct, id: string, props: MediaDeliveryProps) {
    super(scope, id);

    this.signingKey = new secretsmanager.Secret(this, 'SigningKey', {
      description: 'PEM private key signing media playback links (CloudFront trusted key); filled at deploy time',
      removalPolicy: RemovalPolicy.DESTROY,
    });
    acknowledge(this.signingKey, {
      'AwsSolutions-SMG4': "a new key means a new CloudFront public key: it is replaced by redeploying, not rotated in place",
    });

    const publicKeyPem = this.signingKeyResource();
    this.publicKey = new cloudfront.PublicKey(this, 'PublicKey', {
      encodedKey: publicKeyPem,
      comment: 'verifies media playback links',
    });
    this.logs = cloudFrontLogBucket(this);
    const keyGroup = new cloudfront.KeyGroup(this, 'KeyGroup', { items: [this.publicKey], comment: 'media playback links' });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Reaction Studio media (signed URLs only)',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(props.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: this.cachePolicy(),
        trustedKeyGroups: [keyGroup],
      },
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logs,
    });
    acknowledge(this.distribution, {
      'AwsSolutions-CFR1': 'the audience of a posted video is worldwide: no geo restriction',
      'AwsSolutions-CFR2': 'every request needs a signed URL for one object; a WAF would add cost and no protection here',
      'AwsSolutions-CFR4': 'the default cloudfront.net certificate; its TLS policy is set by CloudFront, a custom domain can tighten it',
    });
  }

  /**
   * CachingOptimized's settings (TTLs, compression, no headers or cookies) plus one query string,
   * `response-content-disposition`: download links carry it, so it reaches S3 (which answers with
   * that Content-Disposition) and a download and a playback of one object are cached apart. Every
   * other query string (the signature's own) stays out of the key and off the origin request.
   */
  private cachePolicy(): cloudfront.CachePolicy {
    return new cloudfront.CachePolicy(this, 'CachePolicy', {
      comment: 'media: CachingOptimized plus the download links\' response-content-disposition',
      minTtl: Duration.seconds(1),
      defaultTtl: Duration.days(1),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.allowList(RESPONSE_CONTENT_DISPOSITION),
    });
  }

  /** Lets `fn` sign links: where the distribution is, which key, and read access to the private half. */
  grantSigning(fn: lambda.Function): void {
    fn.addEnvironment(MEDIA_CDN_ENV.domain, this.distribution.distributionDomainName);
    fn.addEnvironment(MEDIA_CDN_ENV.keyPairId, this.publicKey.publicKeyId);
    fn.addEnvironment(MEDIA_CDN_ENV.privateKeySecret, this.signingKey.secretArn);
    this.signingKey.grantRead(fn);
  }

  /** The custom resource that fills the secret once and answers the public key. */
  private signingKeyResource(): string {
    const logGroup = new logs.LogGroup(this, 'KeyMakerLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const role = new iam.Role(this, 'KeyMakerRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'makes the media signing key once and stores it in its secret',
    });
    logGroup.grantWrite(role);
    this.signingKey.grantRead(role);
    this.signingKey.grantWrite(role);
    const keyMaker = new nodejs.NodejsFunction(this, 'KeyMaker', {
      entry: path.join(PROJECT_ROOT, 'functions/handlers/media-signing-key.ts'),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: path.join(PROJECT_ROOT, 'package-lock.json'),
      description: 'makes the media signing key (custom resource)',
      runtime: LAMBDA_RUNTIME,
      architecture: lambda.Architecture.X86_64,
      role,
      logGroup,
      timeout: Duration.seconds(30),
      // Generating one RSA key is the whole job.
      memorySize: 256,
      tracing: lambda.Tracing.ACTIVE,
      bundling: lambdaBundlingProps(),
    });
    acknowledge(role, { 'AwsSolutions-IAM5[Resource::*]': "X-Ray's PutTraceSegments and PutTelemetryRecords take no resource" });
    acknowledge(keyMaker, { 'Serverless-LambdaDLQ': 'called synchronously by the deploy: a failure fails the deploy, nothing to redrive' });

    const provider = new cr.Provider(this, 'KeyMakerProvider', { onEventHandler: keyMaker, logGroup });
    acknowledge(provider, {
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]':
        "the provider framework's own function, made by aws-cdk-lib; it runs only during deploys",
      'AwsSolutions-L1': "the provider framework's own function picks its runtime (aws-cdk-lib), not this stack",
      [`AwsSolutions-IAM5[Resource::${arnToken(keyMaker)}:*]`]: 'the provider framework may invoke the key maker and its versions, nothing else',
      'Serverless-LambdaDefaultMemorySize': "the provider framework's own function (aws-cdk-lib) sets no memory; it only relays one deploy-time call",
      'Serverless-LambdaDLQ': "the provider framework's own function is called by CloudFormation during deploys: a failure fails the deploy",
      'Serverless-LambdaTracing': "the provider framework's own function (aws-cdk-lib) has no tracing option; the key maker it calls is traced",
    });
    const keyPair = new CustomResource(this, 'KeyPair', {
      serviceToken: provider.serviceToken,
      properties: { SecretId: this.signingKey.secretArn },
    });
    return keyPair.getAttString(PUBLIC_KEY_ATTRIBUTE);
  }
}

/** CloudFront's standard logs are written with an ACL, so their bucket keeps ACLs (the bucket owner still owns what lands). */
function cloudFrontLogBucket(scope: Construct): s3.Bucket {
  const bucket = new s3.Bucket(scope, 'Logs', {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    minimumTLSVersion: 1.2,
    removalPolicy: RemovalPolicy.RETAIN,
    lifecycleRules: [{ id: 'expire-cdn-logs', expiration: LOG_RETENTION }],
  });
  acknowledge(bucket, { 'AwsSolutions-S1': "the distribution's log bucket: logging its own writes would log forever" });
  return bucket;
}
