/**
 * The first start creates the `demo` account (plan pro) with a studio login and one key; the raw key
 * and the password are shown once.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { keys } from '#adapters/dynamodb/keys';
import { ALL_SCOPES } from '#domain/api-keys';
import { hashPassword } from '#domain/credentials';
import type { Ports } from '#ports/ports';

const DEMO_EMAIL = 'demo@example.com';

export interface SeededDemo {
  accountId: number;
  key: string;
  login: { email: string; password: string };
}

export async function seedDemoAccount(
  table: DynamoTable,
  deps: Pick<Ports, 'users' | 'apiKeys' | 'now'>,
): Promise<SeededDemo | undefined> {
  const marker = await table.client.send(new GetCommand({ TableName: table.name, Key: keys.seedMarker('demo') }));
  if (marker.Item) return undefined;
  const password = `demo-${randomBytes(12).toString('base64url')}`;
  const made = await deps.users.signUp({
    email: DEMO_EMAIL,
    name: 'Demo',
    accountName: 'demo',
    plan: 'pro',
    passwordHash: await hashPassword(password),
    now: deps.now(),
  });
  // Only a data dir whose seed marker was lost can hold the email already.
  if (made === 'email_taken') throw new Error(`${DEMO_EMAIL} already has an account, but the demo seed marker is missing`);
  const key = await deps.apiKeys.create(made.account.id, ALL_SCOPES, deps.now(), 'demo');
  await table.client.send(
    new PutCommand({
      TableName: table.name,
      Item: { ...keys.seedMarker('demo'), account_id: made.account.id, created_at: deps.now().toISOString() },
    }),
  );
  return { accountId: made.account.id, key: key.key, login: { email: DEMO_EMAIL, password } };
}
