/**
 * The one media bucket (uploads, normalised demos, reaction clips, finished videos, posters) and the
 * bucket its server access logs go to.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { UPLOAD_CORS_RULE } from '#lib/upload-cors';
import { Construct } from 'constructs';
import { acknowledge } from './nag';
import { UPLOADS_PREFIX } from '#domain/upload-record';
import { RETENTION_TAG, retentionClasses } from '#domain/video-retention';

/**
 * One rule per retention class of the plans (functions/domain/plans.ts): a finished video's file and
 * poster carry their class as a tag from the moment they are written, so lifecycle expires them
 * without reading the table. In this versioned bucket expiry leaves a delete marker; the
 * noncurrent-version rule below removes the bytes NONCURRENT_KEPT later, and then the marker.
 */
function videoRetentionRules(): s3.LifecycleRule[] {
  return retentionClasses().map(({ retentionClass, days }) => ({
    id: `expire-videos-${retentionClass}`,
    tagFilters: { [RETENTION_TAG]: retentionClass },
    expiration: Duration.days(days),
  }));
}

/** Scratch objects (e.g. an upload waiting for normalisation) live under this prefix for a day at most. */
const TMP_PREFIX = 'tmp/';

/**
 * A direct upload's form lives an hour and a used object is copied out at once; what is still under the
 * prefix two days later was never used.
 */
const UNUSED_UPLOAD_EXPIRY = Duration.days(2);
/** How long an overwritten or deleted object can be brought back. */
const NONCURRENT_KEPT = Duration.days(7);

/** Access logs are for investigating a leak or an abuse after the fact; three months covers a billing dispute. */
const ACCESS_LOG_RETENTION = Duration.days(90);

export class MediaStore extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.accessLogs = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: ACCESS_LOG_RETENTION }],
    });
    acknowledge(this.accessLogs, {
      'AwsSolutions-S1': 'the access-log bucket itself: logging its own writes would log forever',
    });

    this.bucket = new s3.Bucket(this, 'Bucket', {
      // Media is only ever handed out through presigned GET URLs.
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // An overwrite or a delete (a bug, a wrong key) keeps the old object as a noncurrent version for
      // NONCURRENT_KEPT, then lifecycle removes it; versions cost storage only for that week.
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'media/',
      lifecycleRules: [
        { id: 'abort-incomplete-multipart-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'expire-tmp', prefix: TMP_PREFIX, expiration: Duration.days(1) },
        { id: 'expire-unused-uploads', prefix: UPLOADS_PREFIX, expiration: UNUSED_UPLOAD_EXPIRY },
        { id: 'expire-noncurrent-versions', noncurrentVersionExpiration: NONCURRENT_KEPT, expiredObjectDeleteMarker: true },
        ...videoRetentionRules(),
      ],
      cors: [
        {
          allowedMethods: UPLOAD_CORS_RULE.allowedMethods.map((method) => s3.HttpMethods[method]),
          allowedOrigins: [...UPLOAD_CORS_RULE.allowedOrigins],
          allowedHeaders: [...UPLOAD_CORS_RULE.allowedHeaders],
          maxAge: UPLOAD_CORS_RULE.maxAgeSeconds,
        },
      ],
    });
  }
}
