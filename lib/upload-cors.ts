/**
 * Browsers (the studio) send direct uploads to the presigned form in the media bucket, on another
 * origin. The form's signed policy, not the origin, decides what may be stored, so any origin may POST.
 * One rule for both runtimes: the CDK bucket and the local s3rver bucket.
 */
export const UPLOAD_CORS_RULE = {
  allowedMethods: ['POST'],
  allowedOrigins: ['*'],
  allowedHeaders: ['*'],
  maxAgeSeconds: 3600,
} as const;
