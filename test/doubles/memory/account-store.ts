import type { Account } from '#domain/account';
import type { PlanName } from '#domain/plans';
import type { AccountStore } from '#ports/account-store';

export class MemoryAccountStore implements AccountStore {
  private readonly accounts = new Map<number, Account>();
  private lastId = 0;

  async create(name: string, plan: PlanName, now = new Date()): Promise<Account> {
    const account: Account = { id: ++this.lastId, name, plan, created_at: now.toISOString() };
    this.accounts.set(account.id, account);
    return { ...account };
  }

  async get(accountId: number): Promise<Account | undefined> {
    const account = this.accounts.get(accountId);
    return account && { ...account };
  }
}
