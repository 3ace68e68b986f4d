/**
 * AWS Signature Version 4 for one request, over node:crypto: all the API Gateway Management API's
 * POST /@connections/{id} needs, with the function's own credentials (Lambda puts them in its
 * environment). It stands in for @aws-sdk/client-apigatewaymanagementapi, which this repository does
 * not install; the port (UpdatePusher) is what the rest sees, so the SDK can replace it in one file.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignedRequestInput {
  method: string;
  url: URL;
  body: string;
  region: string;
  service: string;
  credentials: AwsCredentials;
  at: Date;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** RFC 3986 unreserved characters stay; everything else is percent-encoded (SigV4's UriEncode). */
const uriEncode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `20150830T123600Z` */
const amzDate = (at: Date) => at.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** The headers to send: the input's host, the date, the session token and the Authorization that signs them. */
export function signedHeaders(input: SignedRequestInput): Record<string, string> {
  const date = amzDate(input.at);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = { host: input.url.host, 'x-amz-date': date };
  if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken;
  const names = Object.keys(headers).sort();
  // Services other than S3 sign each path segment encoded once more than it is sent.
  const canonicalPath = input.url.pathname.split('/').map(uriEncode).join('/');
  const query = [...input.url.searchParams].map(([k, v]) => `${uriEncode(k)}=${uriEncode(v)}`).sort().join('&');
  const canonical = [input.method, canonicalPath, query, names.map((n) => `${n}:${headers[n]!.trim()}\n`).join(''), names.join(';'), sha256(input.body)].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region), input.service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return { ...headers, authorization: `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}` };
}
