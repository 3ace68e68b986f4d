import type { Account } from '#domain/account';
import type { PlanName } from '#domain/plans';
import type { AccountStore, PlanRecord, PlanWrite, PlanWriteResult } from '#ports/account-store';

interface Stored {
  account: Account;
  record: PlanRecord;
  claim?: { token: string; until: number };
  events: Set<string>;
}

/** Accounts as the DynamoDB store keeps them: plan writes conditioned on the version, provider events applied once. */
export class MemoryAccountStore implements AccountStore {
  private readonly accounts = new Map<number, Stored>();
  private lastId = 0;

  async create(name: string, plan: PlanName, now = new Date()): Promise<Account> {
    const account: Account = { id: ++this.lastId, name, plan, pending_plan: null, plan_changes_at: null, created_at: now.toISOString() };
    this.accounts.set(account.id, { account, record: { state: { plan, pending_plan: null, plan_changes_at: null }, version: 0, subscription: null }, events: new Set() });
    return { ...account };
  }

  async get(accountId: number): Promise<Account | undefined> {
    const stored = this.accounts.get(accountId);
    return stored && { ...stored.account };
  }

  async planRecord(accountId: number): Promise<PlanRecord | undefined> {
    const stored = this.accounts.get(accountId);
    return stored && structuredClone(stored.record);
  }

  async claimPlanChange(accountId: number, token: string, until: Date, now: Date): Promise<boolean> {
    const stored = this.accounts.get(accountId);
    if (!stored || (stored.claim && stored.claim.until > now.getTime())) return false;
    stored.claim = { token, until: until.getTime() };
    return true;
  }

  async releasePlanChange(accountId: number, token: string): Promise<void> {
    const stored = this.accounts.get(accountId);
    if (stored?.claim?.token === token) delete stored.claim;
  }

  async writePlan(accountId: number, write: PlanWrite): Promise<PlanWriteResult> {
    const stored = this.accounts.get(accountId);
    if (write.eventId !== undefined && stored?.events.has(write.eventId)) return 'duplicate';
    if (!stored || stored.record.version !== write.version) return 'stale';
    if (write.eventId !== undefined) stored.events.add(write.eventId);
    stored.record = {
      state: { ...write.state },
      version: write.version + 1,
      subscription: write.subscription === undefined ? stored.record.subscription : write.subscription && { ...write.subscription },
    };
    stored.account = { ...stored.account, ...write.state };
    return 'written';
  }
}
