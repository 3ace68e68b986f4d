/**
 * The Management API's request signature (functions/adapters/sockets/sigv4.ts): AWS's own SigV4 test
 * vector, and a connection post signed as the AWS SDK's signer (@smithy/signature-v4) signs it.
 */
import { signedHeaders } from '#adapters/sockets/sigv4';

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const at = new Date('2015-08-30T12:36:00Z');

test("AWS's get-vanilla test vector", () => {
  const headers = signedHeaders({ method: 'GET', url: new URL('https://example.amazonaws.com/'), body: '', region: 'us-east-1', service: 'service', credentials, at });
  expect(headers).toEqual({
    host: 'example.amazonaws.com',
    'x-amz-date': '20150830T123600Z',
    authorization:
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
  });
});

test('a post to a connection whose id needs escaping, with a session token, signs as the SDK does', () => {
  const url = new URL('https://abc.execute-api.eu-west-1.amazonaws.com/v1/@connections/L0SM9cOFvHcCIhw%3D');
  const headers = signedHeaders({ method: 'POST', url, body: '{"a":1}', region: 'eu-west-1', service: 'execute-api', credentials: { ...credentials, sessionToken: 'tok' }, at });
  expect(headers['x-amz-security-token']).toBe('tok');
  // Recorded from the AWS SDK's own signer (@smithy/signature-v4, applyChecksum off) for the same request.
  expect(headers.authorization).toBe(
    'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/eu-west-1/execute-api/aws4_request, SignedHeaders=host;x-amz-date;x-amz-security-token, Signature=fa33169224e16377d1e57a142179f0ba1906675734d725e980ba20a9d34494d0',
  );
});
