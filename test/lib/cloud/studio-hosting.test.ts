/**
 * The studio on AWS, read from the synthesised template: one distribution serves the built pages from
 * a private bucket and routes /api/* to the HTTP API on the same origin, uncached, with cookies and the
 * studio's host forwarded; the pages carry the local server's security headers. The two CloudFront
 * Functions are run here on sample events.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { App, Stack } from 'aws-cdk-lib';
import { bootstrapAssetsArn } from '#cloud/studio-hosting';
import { STUDIO_STATIC_HEADERS } from '#lib/studio-headers';
import { resourcesOfType, synthesisedStack, type Json } from '#test-support/cdk-template';

const synthesis = synthesisedStack();
const { ids } = synthesis;
const resources = () => synthesis.resources;
const distributionConfig = () => resources()[ids.studio.distribution]!.Properties.DistributionConfig;

/** A CloudFront Function's handler, loaded as CloudFront would run the file. */
function edgeHandler(file: string): (event: Json) => Json {
  const sandbox: { handler?: (event: Json) => Json } = {};
  vm.runInNewContext(readFileSync(path.join(__dirname, '../../../lib/cloud/studio-edge', file), 'utf8'), sandbox);
  return sandbox.handler!;
}
const viewerRequest = (uri: string, headers: Json = {}) => ({ request: { uri, method: 'GET', headers } });

test('pages come from the private site bucket through origin access control; the app is index.html', () => {
  const config = distributionConfig();
  expect(config.DefaultRootObject).toBe('index.html');
  const siteOrigin = config.Origins.find((o: Json) => o.Id === config.DefaultCacheBehavior.TargetOriginId);
  expect(siteOrigin.OriginAccessControlId).toBeDefined();
  expect(siteOrigin.DomainName).toEqual({ 'Fn::GetAtt': [ids.studio.bucket, 'RegionalDomainName'] });
  expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
  expect(config.DefaultCacheBehavior.AllowedMethods).toEqual(['GET', 'HEAD']);
  const [bucketId, bucket] = resourcesOfType(resources(), 'AWS::S3::Bucket').find(([id]) => id === ids.studio.bucket)!;
  expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({ BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true });
  // The build is uploaded on deploy, and index.html invalidated so a new build is seen at once.
  const [, deployment] = resourcesOfType(resources(), 'Custom::CDKBucketDeployment')[0]!;
  expect(deployment.Properties.DestinationBucketName).toEqual({ Ref: bucketId });
  expect(deployment.Properties.DistributionPaths).toEqual(['/index.html']);
});

test('/api/* goes to the HTTP API over HTTPS: every method, never cached, cookies and query strings through, the studio host forwarded', () => {
  const config = distributionConfig();
  const api = config.CacheBehaviors.find((b: Json) => b.PathPattern === 'api/*');
  expect(api).toBeDefined();
  expect(api.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']));
  expect(api.ViewerProtocolPolicy).toBe('https-only');
  // The managed CachingDisabled and AllViewerExceptHostHeader policies.
  expect(api.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad');
  expect(api.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac');
  const origin = config.Origins.find((o: Json) => o.Id === api.TargetOriginId);
  const apiId = ids.api.httpApi;
  expect(JSON.stringify(origin.DomainName)).toContain(apiId);
  expect(origin.CustomOriginConfig.OriginProtocolPolicy).toBe('https-only');
  expect(api.FunctionAssociations).toHaveLength(1);
});

test('/mcp goes to the HTTP API as /api/* does (every method, never cached, Authorization through), without the studio-host function', () => {
  const config = distributionConfig();
  const api = config.CacheBehaviors.find((b: Json) => b.PathPattern === 'api/*');
  const mcp = config.CacheBehaviors.find((b: Json) => b.PathPattern === 'mcp');
  expect(mcp).toBeDefined();
  expect(mcp).toMatchObject({
    TargetOriginId: api.TargetOriginId,
    AllowedMethods: api.AllowedMethods,
    ViewerProtocolPolicy: 'https-only',
    CachePolicyId: api.CachePolicyId,
    OriginRequestPolicyId: api.OriginRequestPolicyId,
  });
  expect(mcp.FunctionAssociations).toBeUndefined();
});

test('the pages carry the same security headers as the local server, and a CSP that allows only this origin, media and uploads', () => {
  const [, policy] = resourcesOfType(resources(), 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
  const security = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
  expect(Object.keys(STUDIO_STATIC_HEADERS).sort()).toEqual(['Referrer-Policy', 'X-Content-Type-Options', 'X-Frame-Options']);
  expect(security.ContentTypeOptions.Override).toBe(true);
  expect(security.FrameOptions.FrameOption).toBe(STUDIO_STATIC_HEADERS['X-Frame-Options']);
  expect(security.ReferrerPolicy.ReferrerPolicy).toBe(STUDIO_STATIC_HEADERS['Referrer-Policy']);
  expect(security.StrictTransportSecurity.AccessControlMaxAgeSec).toBe(31_536_000);
  const csp = JSON.stringify(security.ContentSecurityPolicy.ContentSecurityPolicy);
  for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"]) expect(csp).toContain(directive);
  // The media distribution's domain and the media bucket (direct uploads) are named by reference.
  expect(csp).toContain(ids.delivery.distribution);
  expect(csp).toContain(ids.media.bucket);
});

test("the studio's address is an output", () => {
  expect(synthesis.outputs.StudioUrl.Value).toBeDefined();
});

describe('the CloudFront Functions', () => {
  test("the app's own paths are index.html; files of the build are themselves", () => {
    const handler = edgeHandler('spa-paths.js');
    for (const uri of ['/', '/jobs', '/jobs/12', '/settings/']) expect(handler(viewerRequest(uri)).uri).toBe('/index.html');
    for (const uri of ['/assets/index-abc.js', '/assets/index-abc.css', '/favicon.ico', '/index.html']) expect(handler(viewerRequest(uri)).uri).toBe(uri);
  });

  test("the API hears the studio's host in x-forwarded-host, whatever the viewer sent", () => {
    const handler = edgeHandler('forwarded-host.js');
    const out = handler(viewerRequest('/api/v1/products', { host: { value: 'd111.cloudfront.net' }, 'x-forwarded-host': { value: 'evil.example' } }));
    expect(out.headers['x-forwarded-host']).toEqual({ value: 'd111.cloudfront.net' });
    expect(out.uri).toBe('/api/v1/products');
  });
});

describe("the acknowledgement of the build copier's read of CDK's assets bucket", () => {
  // cdk-nag matches the finding's text, which holds real values where `cdk synth` knows the environment.
  test('names the bucket as cdk-nag writes it, with or without a known environment', () => {
    const app = new App();
    expect(bootstrapAssetsArn(new Stack(app, 'Agnostic'))).toBe('arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>');
    expect(bootstrapAssetsArn(new Stack(app, 'RegionOnly', { env: { region: 'us-east-1' } }))).toBe('arn:aws:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-us-east-1');
    expect(bootstrapAssetsArn(new Stack(app, 'Known', { env: { account: '123456789012', region: 'cn-north-1' } }))).toBe('arn:aws-cn:s3:::cdk-hnb659fds-assets-123456789012-cn-north-1');
  });
});
