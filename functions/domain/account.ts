import { settledPlan, type PlanState } from './plan-change';
import { planOf, type Plan } from './plans';

/** An account; its plan fields are as last written (`accountAt` settles a downgrade whose time has come). */
export interface Account extends PlanState {
  id: number;
  name: string;
  created_at: string;
}

/** The account as it stands at `at`: what every answer shows and every limit is decided by. */
export function accountAt(account: Account, at: Date): Account {
  return { id: account.id, name: account.name, ...settledPlan(account, at), created_at: account.created_at };
}

/** The numbers of the plan in force at `at`. */
export const limitsAt = (account: Account, at: Date): Plan => planOf(settledPlan(account, at).plan);
