/**
 * The studio on AWS: its build (studio/dist) in a private bucket behind a CloudFront distribution
 * that also routes /api/* (and /mcp) to the HTTP API, so pages and API share one origin (the
 * session cookie needs no CORS and no third-party cookie). Pages carry the same security headers as
 * locally.
 */
import * as path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { DefaultStackSynthesizer, Duration, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { API_PREFIX } from '#functions/routes';
import { studioContentSecurityPolicy } from '#lib/studio-headers';
import { acknowledge, arnToken } from './nag';
import { MCP_PATH } from './mcp-endpoint';

export interface StudioHostingProps {
  httpApi: HttpApi;
  /** studio/dist, built (`npm run studio:build`). */
  siteDirectory: string;
  /** Where the API's media links point (the media distribution's domain). */
  mediaDomain: string;
  /** The media bucket: direct uploads are posted to it. */
  mediaBucket: s3.IBucket;
  /** Where CloudFront writes its access logs (under studio/). */
  logBucket: s3.IBucket;
  /** The live-updates WebSocket's address (live-updates.ts): the pages may connect to it. */
  updatesUrl: string;
}

const edgeFunction = (scope: Construct, id: string, file: string, comment: string) =>
  new cloudfront.Function(scope, id, {
    code: cloudfront.FunctionCode.fromInline(readFileSync(path.join(__dirname, 'studio-edge', file), 'utf8')),
    runtime: cloudfront.FunctionRuntime.JS_2_0,
    comment,
  });

/**
 * The bootstrap assets bucket's ARN as cdk-nag writes it in a finding: pseudo parameters where the
 * stack's environment is left to deploy time (the tests), real values where `cdk synth` knows them.
 */
export function bootstrapAssetsArn(stack: Stack): string {
  const known = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
  const region = known(stack.region, 'Region');
  const partition = Token.isUnresolved(stack.region) ? '<AWS::Partition>' : (RegionInfo.get(stack.region).partition ?? '<AWS::Partition>');
  return `arn:${partition}:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-${known(stack.account, 'AccountId')}-${region}`;
}

export class StudioHosting extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: StudioHostingProps) {
    super(scope, id);
    if (!existsSync(path.join(props.siteDirectory, 'index.html'))) throw new Error(`The studio is not built in ${props.siteDirectory}: run npm run studio:build`);
    this.bucket = new s3.Bucket(this, 'Site', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // Kept like the other buckets: deleting a non-empty bucket would stop `cdk destroy` half-way.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.bucket, { 'AwsSolutions-S1': 'a copy of the build, read only through CloudFront, whose access logs record every request' });

    const stack = Stack.of(this);
    const apiOrigin = new origins.HttpOrigin(`${props.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
    });

    const toApi = {
      origin: apiOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      // Cookies, query strings and headers (Authorization) reach the API; Host stays API Gateway's own.
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    } satisfies cloudfront.BehaviorOptions;

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Reaction Studio: the studio, and the API under /api/ on the same origin',
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.pageHeaders(props),
        functionAssociations: [
          { eventType: cloudfront.FunctionEventType.VIEWER_REQUEST, function: edgeFunction(this, 'SpaPaths', 'spa-paths.js', 'studio paths are index.html') },
        ],
      },
      additionalBehaviors: {
        [`${API_PREFIX.split('/')[1]}/*`]: {
          ...toApi,
          functionAssociations: [
            { eventType: cloudfront.FunctionEventType.VIEWER_REQUEST, function: edgeFunction(this, 'ForwardedHost', 'forwarded-host.js', 'the studio host for the API') },
          ],
        },
        // The MCP endpoint (lib/cloud/mcp-endpoint.ts) on the studio's origin too; its tools reach the API directly.
        [MCP_PATH.slice(1)]: toApi,
      },
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'studio/',
    });
    acknowledge(this.distribution, {
      'AwsSolutions-CFR1': 'the studio is for customers anywhere: no geo restriction',
      'AwsSolutions-CFR2': 'the API behind /api/ has its own throttling, keys and sessions; a WAF is an option for a custom domain',
      'AwsSolutions-CFR4': 'the default cloudfront.net certificate; its TLS policy is set by CloudFront, a custom domain can tighten it',
    });

    new s3deploy.BucketDeployment(this, 'Build', {
      sources: [s3deploy.Source.asset(props.siteDirectory)],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/index.html'],
      memoryLimit: 512,
    });
    this.acknowledgeCopier();
  }

  /** aws-s3-deployment's copier: CDK's own Python function, run once per deploy, whose role and runtime aws-cdk-lib sets. */
  private acknowledgeCopier(): void {
    const copier = Stack.of(this).node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!copier) throw new Error('the BucketDeployment copier function was not found');
    const why = "aws-cdk-lib's own deploy-time copier of the studio build; its role and runtime are set by aws-cdk-lib";
    acknowledge(copier, {
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]': why,
      'AwsSolutions-IAM5[Action::s3:GetBucket*]': why,
      'AwsSolutions-IAM5[Action::s3:GetObject*]': why,
      'AwsSolutions-IAM5[Action::s3:List*]': why,
      'AwsSolutions-IAM5[Action::s3:Abort*]': why,
      'AwsSolutions-IAM5[Action::s3:DeleteObject*]': why,
      [`AwsSolutions-IAM5[Resource::${bootstrapAssetsArn(Stack.of(this))}/*]`]: "reads the uploaded build from CDK's bootstrap assets bucket",
      [`AwsSolutions-IAM5[Resource::${arnToken(this.bucket)}/*]`]: 'replaces every file of the site bucket with the new build',
      'AwsSolutions-IAM5[Resource::*]': 'CloudFront invalidations are granted on every distribution by aws-cdk-lib',
      'AwsSolutions-L1': why,
      'Serverless-LambdaDLQ': 'a CloudFormation custom resource: CloudFormation reports its failure',
      'Serverless-LambdaLatestVersion': why,
      'Serverless-LambdaTracing': 'runs once per deploy; its logs are enough',
    });
  }

  /** The page's origin: the API and the session cookie live here. */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }

  private pageHeaders(props: StudioHostingProps): cloudfront.ResponseHeadersPolicy {
    const uploads = `https://${props.mediaBucket.bucketRegionalDomainName}`;
    const policy = studioContentSecurityPolicy({ media: [`https://${props.mediaDomain}`, uploads], uploads: [uploads], sockets: [props.updatesUrl] });
    return new cloudfront.ResponseHeadersPolicy(this, 'PageHeaders', {
      comment: 'the studio pages: the same headers as the local server sends',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: policy, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
  }
}
