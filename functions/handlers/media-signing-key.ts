/**
 * The stack's custom resource behind the media distribution's trusted key (lib/cloud/media-delivery.ts):
 * on create and update it makes sure the secret holds a signing key and answers its public half.
 */
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ensureSigningKey, PUBLIC_KEY_ATTRIBUTE } from '#adapters/cloudfront/signing-key';

interface Answer {
  PhysicalResourceId: string;
  Data?: Record<string, string>;
}

export function createHandler(secrets: SecretsManagerClient) {
  return async (event: CloudFormationCustomResourceEvent): Promise<Answer> => {
    const secretId = String(event.ResourceProperties.SecretId);
    // The secret is the stack's own resource: deleting it removes the key, nothing to do here.
    if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
    return { PhysicalResourceId: secretId, Data: { [PUBLIC_KEY_ATTRIBUTE]: await ensureSigningKey(secrets, secretId) } };
  };
}

export const handler = createHandler(new SecretsManagerClient({}));
