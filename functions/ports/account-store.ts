import type { Account } from '#domain/account';
import type { PlanName } from '#domain/plans';

export interface AccountStore {
  create(name: string, plan: PlanName, now?: Date): Promise<Account>;
  get(accountId: number): Promise<Account | undefined>;
}
