/**
 * Playback links through CloudFront, signed with the distribution's trusted key (canned policy). They
 * stay valid until their own expiry whatever happens to the signing function's credentials, unlike S3
 * presigned URLs, which die with the Lambda role's session (hours): a post scheduled days ahead keeps
 * its media.
 */
import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/**
 * The one query string the media distribution passes to S3 (and keys its cache on): S3 answers a
 * signed GET carrying it with that Content-Disposition, so a download link saves instead of playing.
 */
export const RESPONSE_CONTENT_DISPOSITION = 'response-content-disposition';

/** Signs a link to one object of the bucket, valid until `expiresAt`. */
export interface SignedLinks {
  /** The longest life a link may be given. */
  readonly maxTtlS: number;
  /** `query` is part of the signed URL: the holder can neither change nor drop it. */
  sign(key: string, expiresAt: Date, query?: Readonly<Record<string, string>>): Promise<string>;
}

/** A post may be scheduled a year ahead; its media must still load the day after. */
const CLOUDFRONT_LINK_MAX_TTL_S = 367 * 24 * 60 * 60;

export interface CloudFrontLinkOptions {
  domain: string;
  keyPairId: string;
  /** The PEM private key; read once per instance, again only after a failed read. */
  privateKey: () => Promise<string>;
}

export class CloudFrontSignedLinks implements SignedLinks {
  readonly maxTtlS = CLOUDFRONT_LINK_MAX_TTL_S;
  private key: Promise<string> | undefined;

  constructor(private readonly options: CloudFrontLinkOptions) {}

  /**
   * A canned policy signs the exact URL, query string included, so the query is appended before
   * signing; CloudFront then refuses the link with any other query (or none).
   */
  async sign(key: string, expiresAt: Date, query?: Readonly<Record<string, string>>): Promise<string> {
    this.key ??= this.options.privateKey().catch((error: unknown) => {
      this.key = undefined;
      throw error;
    });
    const path = key.split('/').map(encodeURIComponent).join('/');
    const search = Object.entries(query ?? {})
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join('&');
    return getSignedUrl({
      url: `https://${this.options.domain}/${path}${search ? `?${search}` : ''}`,
      keyPairId: this.options.keyPairId,
      privateKey: await this.key,
      dateLessThan: expiresAt,
    });
  }
}

/** The private key as the stack stores it: the secret's string value. */
export function secretText(client: SecretsManagerClient, secretId: string): () => Promise<string> {
  return async () => {
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    if (!SecretString) throw new Error(`secret ${secretId} holds no text`);
    return SecretString;
  };
}
