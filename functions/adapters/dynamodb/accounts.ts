import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from '#domain/account';
import type { PlanName } from '#domain/plans';
import type { AccountStore } from '#ports/account-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { allocateId } from './ids';

export class DynamoAccountStore implements AccountStore {
  constructor(private readonly table: DynamoTable) {}

  async create(name: string, plan: PlanName, now = new Date()): Promise<Account> {
    const account: Account = { id: await allocateId(this.table, 'account'), name, plan, created_at: now.toISOString() };
    await this.table.client.send(
      new PutCommand({
        TableName: this.table.name,
        Item: { ...keys.account(account.id), type: 'account', ...account },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return account;
  }

  async get(accountId: number): Promise<Account | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.account(accountId) }));
    if (!out.Item) return undefined;
    const { id, name, plan, created_at } = out.Item as Account;
    return { id, name, plan, created_at };
  }
}
