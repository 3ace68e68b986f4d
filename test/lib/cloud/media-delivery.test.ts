/**
 * Media delivery on AWS, read from the synthesised template: a CloudFront distribution that reaches the
 * private bucket through origin access control and serves only URLs signed with the stack's own key,
 * whose private half only the functions that reach the bucket may read.
 */
import { HANDLER_GROUPS, type HandlerGroup } from '#functions/routes';
import { MEDIA_CDN_ENV } from '#functions/config';
import { actionsOf, resourcesOfType, roleStatements, synthesisedStack, type Json } from '#test-support/cdk-template';

const synthesis = synthesisedStack();
const { ids } = synthesis;
const ofType = (type: string) => resourcesOfType(synthesis.resources, type);
const only = (type: string) => {
  const found = ofType(type);
  expect(found).toHaveLength(1);
  return found[0]!;
};
/** The media distribution (the studio has its own, studio-hosting.test.ts). */
const mediaDistribution = (): [string, Json] => {
  const id = ids.delivery.distribution;
  return [id, synthesis.resources[id]!];
};

test('one distribution: HTTPS only, GET/HEAD, every request signed by the trusted key group, logged', () => {
  const [, distribution] = mediaDistribution();
  const config = distribution.Properties.DistributionConfig;
  const behavior = config.DefaultCacheBehavior;
  expect(behavior.ViewerProtocolPolicy).toBe('https-only');
  expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD']);
  expect(behavior.TrustedKeyGroups).toEqual([{ Ref: only('AWS::CloudFront::KeyGroup')[0] }]);
  expect(config.Logging.Bucket).toBeDefined();
});

test('its cache policy is CachingOptimized plus one query string, response-content-disposition, forwarded and in the cache key', () => {
  const [, distribution] = mediaDistribution();
  const ref = distribution.Properties.DistributionConfig.DefaultCacheBehavior.CachePolicyId;
  expect(ref).toEqual({ Ref: expect.any(String) });
  const policy = synthesis.resources[ref.Ref]!;
  expect(policy.Type).toBe('AWS::CloudFront::CachePolicy');
  const config = policy.Properties.CachePolicyConfig;
  expect(config).toMatchObject({ MinTTL: 1, DefaultTTL: 86_400, MaxTTL: 31_536_000 });
  const key = config.ParametersInCacheKeyAndForwardedToOrigin;
  expect(key.QueryStringsConfig).toEqual({ QueryStringBehavior: 'whitelist', QueryStrings: ['response-content-disposition'] });
  expect(key.HeadersConfig).toEqual({ HeaderBehavior: 'none' });
  expect(key.CookiesConfig).toEqual({ CookieBehavior: 'none' });
  expect(key).toMatchObject({ EnableAcceptEncodingGzip: true, EnableAcceptEncodingBrotli: true });
});

test('the origin is the media bucket through origin access control; the bucket lets only that distribution read', () => {
  const [, distribution] = mediaDistribution();
  const [origin] = distribution.Properties.DistributionConfig.Origins;
  const oacId = origin.OriginAccessControlId['Fn::GetAtt'][0];
  expect(synthesis.resources[oacId]!.Type).toBe('AWS::CloudFront::OriginAccessControl');
  const bucketId = ids.media.bucket;
  const policy = ofType('AWS::S3::BucketPolicy').find(([, p]) => p.Properties.Bucket.Ref === bucketId)![1];
  const cloudfront = (policy.Properties.PolicyDocument.Statement as Json[]).filter((s) => s.Principal?.Service === 'cloudfront.amazonaws.com');
  expect(cloudfront).toHaveLength(1);
  expect(cloudfront[0].Action).toBe('s3:GetObject');
  expect(JSON.stringify(cloudfront[0].Condition)).toContain(mediaDistribution()[0]);
  expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] });
});

test("the trusted public key is the custom resource's answer, made from the stack's secret", () => {
  const [, key] = only('AWS::CloudFront::PublicKey');
  const [resourceId, resource] = only('AWS::CloudFormation::CustomResource');
  expect(key.Properties.PublicKeyConfig.EncodedKey).toEqual({ 'Fn::GetAtt': [resourceId, 'PublicKey'] });
  expect(resource.Properties.SecretId).toEqual({ Ref: ids.delivery.signingKey });
});

describe('the functions that hand out links', () => {
  const secretId = () => ids.delivery.signingKey;
  const groups = Object.keys(HANDLER_GROUPS) as HandlerGroup[];
  const variables = (group: HandlerGroup) =>
    synthesis.resources[ids.api.functions[group]]!.Properties.Environment.Variables as Record<string, Json>;
  const readsSecret = (group: HandlerGroup) =>
    roleStatements(synthesis.resources, ids.api.functions[group]).some(
      (s) => actionsOf(s).includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes(secretId()),
    );

  test('every function that reaches the bucket knows the distribution and key, and may read the private half', () => {
    for (const group of groups.filter((g) => HANDLER_GROUPS[g].bucket !== 'none')) {
      expect(Object.keys(variables(group))).toEqual(expect.arrayContaining(Object.values(MEDIA_CDN_ENV)));
      expect(readsSecret(group)).toBe(true);
    }
  });

  test('functions that never reach the bucket get neither', () => {
    const without = groups.filter((g) => HANDLER_GROUPS[g].bucket === 'none');
    expect(without.length).toBeGreaterThan(0);
    for (const group of without) {
      expect(Object.keys(variables(group))).not.toContain(MEDIA_CDN_ENV.privateKeySecret);
      expect(readsSecret(group)).toBe(false);
    }
  });
});
