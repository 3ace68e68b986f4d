/**
 * Studio users. Signing up is one transaction: the account's profile, its first user and a claim on
 * the email (a conditional put on `EMAIL#<email>`), so a taken email writes nothing at all.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from '#domain/account';
import type { User, UserCredentials } from '#domain/user';
import type { SignUpRecord, UserStore } from '#ports/user-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { allocateId } from './ids';

const CLAIM_INDEX = 2;

export class DynamoUserStore implements UserStore {
  constructor(private readonly table: DynamoTable) {}

  async signUp(record: SignUpRecord): Promise<{ account: Account; user: User } | 'email_taken'> {
    const [accountId, userId] = await Promise.all([allocateId(this.table, 'account'), allocateId(this.table, 'user')]);
    const created_at = record.now.toISOString();
    const account: Account = { id: accountId, name: record.accountName, plan: record.plan, pending_plan: null, plan_changes_at: null, created_at };
    const user: User = { id: userId, account_id: accountId, email: record.email, name: record.name, created_at };
    const TableName = this.table.name;
    try {
      await this.table.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName, Item: { ...keys.account(accountId), type: 'account', ...account }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName, Item: { ...keys.user(accountId, userId), type: 'user', ...user, password_hash: record.passwordHash } } },
            {
              Put: {
                TableName,
                Item: { ...keys.emailClaim(record.email), type: 'email_claim', account_id: accountId, user_id: userId },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException && error.CancellationReasons?.[CLAIM_INDEX]?.Code === 'ConditionalCheckFailed') return 'email_taken';
      throw error;
    }
    return { account, user };
  }

  async findByEmail(email: string): Promise<UserCredentials | undefined> {
    const claim = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.emailClaim(email), ConsistentRead: true }));
    if (!claim.Item) return undefined;
    const item = await this.userItem(claim.Item.account_id as number, claim.Item.user_id as number);
    return item && { user: toUser(item), password_hash: item.password_hash as string };
  }

  async get(accountId: number, userId: number): Promise<User | undefined> {
    const item = await this.userItem(accountId, userId);
    return item && toUser(item);
  }

  async setPasswordHash(accountId: number, userId: number, passwordHash: string): Promise<void> {
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.user(accountId, userId),
        UpdateExpression: 'SET password_hash = :hash',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':hash': passwordHash },
      }),
    );
  }

  private async userItem(accountId: number, userId: number): Promise<Record<string, unknown> | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.user(accountId, userId), ConsistentRead: true }));
    return out.Item;
  }
}

function toUser(item: Record<string, unknown>): User {
  return {
    id: item.id as number,
    account_id: item.account_id as number,
    email: item.email as string,
    name: (item.name as string | null) ?? null,
    created_at: item.created_at as string,
  };
}
