import type { Account } from '#domain/account';
import type { PasswordReset } from '#domain/password-reset';
import type { User, UserCredentials } from '#domain/user';
import type { AccountStore } from '#ports/account-store';
import type { SignUpRecord, UserStore } from '#ports/user-store';

/** Users by email, as the DynamoDB store keeps them; a taken email writes nothing, as its transaction does. */
export class MemoryUserStore implements UserStore {
  private readonly byEmail = new Map<string, UserCredentials>();
  /** Each user's pending reset, by user id, as the DynamoDB store keeps it on the user item. */
  private readonly resets = new Map<number, PasswordReset>();
  private lastId = 0;

  constructor(private readonly accounts: AccountStore) {}

  async signUp(record: SignUpRecord): Promise<{ account: Account; user: User } | 'email_taken'> {
    if (this.byEmail.has(record.email)) return 'email_taken';
    // Claimed before the first await, as the transaction's condition makes concurrent sign-ups exclusive.
    const credentials = { user: { id: ++this.lastId, account_id: 0, email: record.email, name: record.name, created_at: record.now.toISOString() }, password_hash: record.passwordHash };
    this.byEmail.set(record.email, credentials);
    const account = await this.accounts.create(record.accountName, record.plan, record.now);
    credentials.user.account_id = account.id;
    return { account, user: { ...credentials.user } };
  }

  async findByEmail(email: string): Promise<UserCredentials | undefined> {
    const found = this.byEmail.get(email);
    return found && { user: { ...found.user }, password_hash: found.password_hash };
  }

  async get(accountId: number, userId: number): Promise<User | undefined> {
    const found = this.find(accountId, userId);
    return found && { ...found.user };
  }

  async setPasswordHash(accountId: number, userId: number, passwordHash: string): Promise<void> {
    const found = this.find(accountId, userId);
    if (!found) throw new Error('ConditionalCheckFailed: no such user');
    found.password_hash = passwordHash;
    this.resets.delete(userId);
  }

  async savePasswordReset(reset: PasswordReset): Promise<void> {
    if (!this.find(reset.account_id, reset.user_id)) throw new Error('ConditionalCheckFailed: no such user');
    this.resets.set(reset.user_id, { ...reset });
  }

  async findPasswordReset(tokenHash: string): Promise<PasswordReset | undefined> {
    const pending = [...this.resets.values()].find((r) => r.token_hash === tokenHash);
    return pending && { ...pending };
  }

  async redeemPasswordReset(reset: PasswordReset, passwordHash: string): Promise<boolean> {
    // Checked and changed before any await, as the store's conditional update is one step.
    const found = this.find(reset.account_id, reset.user_id);
    if (!found || this.resets.get(reset.user_id)?.token_hash !== reset.token_hash) return false;
    found.password_hash = passwordHash;
    this.resets.delete(reset.user_id);
    return true;
  }

  private find(accountId: number, userId: number): UserCredentials | undefined {
    return [...this.byEmail.values()].find((c) => c.user.id === userId && c.user.account_id === accountId);
  }
}
