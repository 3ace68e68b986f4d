/**
 * Studio users. Signing up is one transaction: the account's profile, its first user and a claim on
 * the email (a conditional put on `EMAIL#<email>`), so a taken email writes nothing at all.
 *
 * A pending password reset is a map on the user item (`password_reset`), so a newer one replaces it
 * and redeeming is one update conditioned on its token hash: the password and the reset change
 * together, exactly once. An item under the token's hash leads from a token to its user; the table's
 * TTL removes it after the reset's end.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from '#domain/account';
import type { PasswordReset } from '#domain/password-reset';
import type { User, UserCredentials } from '#domain/user';
import type { SignUpRecord, UserStore } from '#ports/user-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { allocateId } from './ids';
import { putItem } from './puts';

const CLAIM_INDEX = 2;

/** The table's TTL attribute is epoch seconds. */
const ttlOf = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

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
        UpdateExpression: 'SET password_hash = :hash REMOVE password_reset',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':hash': passwordHash },
      }),
    );
  }

  async savePasswordReset(reset: PasswordReset): Promise<void> {
    const { token_hash, account_id, user_id, created_at, expires_at } = reset;
    // The way from the token first: a reset on the user that no token leads to would be a link that never works.
    await putItem(this.table, { ...keys.passwordReset(token_hash), type: 'password_reset', account_id, user_id, expires_at: ttlOf(expires_at) });
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.name,
        Key: keys.user(account_id, user_id),
        UpdateExpression: 'SET password_reset = :reset',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':reset': { token_hash, created_at, expires_at } },
      }),
    );
  }

  async findPasswordReset(tokenHash: string): Promise<PasswordReset | undefined> {
    const pointer = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.passwordReset(tokenHash), ConsistentRead: true }));
    if (!pointer.Item) return undefined;
    const accountId = pointer.Item.account_id as number;
    const userId = pointer.Item.user_id as number;
    const pending = (await this.userItem(accountId, userId))?.password_reset as Omit<PasswordReset, 'account_id' | 'user_id'> | undefined;
    // Replaced by a newer reset, spent, or void since: the token no longer leads anywhere.
    if (pending?.token_hash !== tokenHash) return undefined;
    return { token_hash: tokenHash, account_id: accountId, user_id: userId, created_at: pending.created_at, expires_at: pending.expires_at };
  }

  async redeemPasswordReset(reset: PasswordReset, passwordHash: string): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.user(reset.account_id, reset.user_id),
          UpdateExpression: 'SET password_hash = :hash REMOVE password_reset',
          ConditionExpression: 'password_reset.token_hash = :token',
          ExpressionAttributeValues: { ':hash': passwordHash, ':token': reset.token_hash },
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
    await this.table.client.send(new DeleteCommand({ TableName: this.table.name, Key: keys.passwordReset(reset.token_hash) }));
    return true;
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
