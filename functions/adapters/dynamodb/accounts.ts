import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#adapters/aws-clients';
import { config } from '#functions/config';
import type { PlanName } from '#domain/plans';
import { keys } from './keys';
import { nextId } from './ids';

export interface Account {
  id: number;
  name: string;
  plan: PlanName;
  created_at: string;
}

export async function createAccount(name: string, plan: PlanName, now = new Date()): Promise<Account> {
  const account: Account = { id: await nextId('account'), name, plan, created_at: now.toISOString() };
  await dynamo().send(
    new PutCommand({
      TableName: config.tableName,
      Item: { ...keys.account(account.id), type: 'account', ...account },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return account;
}

export async function getAccount(accountId: number): Promise<Account | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: config.tableName, Key: keys.account(accountId) }));
  if (!out.Item) return undefined;
  const { id, name, plan, created_at } = out.Item as Account;
  return { id, name, plan, created_at };
}
