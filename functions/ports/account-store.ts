import type { Account } from '#domain/account';
import type { PlanState } from '#domain/plan-change';
import type { PlanName } from '#domain/plans';

/** The payment provider's customer and subscription behind a paid plan (Stripe's ids). */
export interface SubscriptionLink {
  provider: 'stripe';
  customer_id: string;
  /** Null once the subscription has ended; the customer stays for the next checkout. */
  subscription_id: string | null;
}

/** The account's plan as stored, with what a change of it is conditioned on. */
export interface PlanRecord {
  state: PlanState;
  /** Moves by one with every plan write: a write names the version it was computed from. */
  version: number;
  subscription: SubscriptionLink | null;
}

export interface PlanWrite {
  /** The version the new state was computed from: any write since makes this one `stale`. */
  version: number;
  state: PlanState;
  /** Replaces the stored link (null removes it); left out, the link stays as it is. */
  subscription?: SubscriptionLink | null;
  /**
   * A payment provider's event id, recorded in the same write: a later write naming it again is
   * `duplicate` and changes nothing, so a redelivered event is applied once.
   */
  eventId?: string;
}

export type PlanWriteResult = 'written' | 'stale' | 'duplicate';

export interface AccountStore {
  create(name: string, plan: PlanName, now?: Date): Promise<Account>;
  get(accountId: number): Promise<Account | undefined>;
  /** Read strongly consistent, as a write's condition will be checked. */
  planRecord(accountId: number): Promise<PlanRecord | undefined>;
  /**
   * Holds the account's plan changes for `token` until `until`, so that two requests do not both talk
   * to the payment provider at once; false while another unexpired claim holds them.
   */
  claimPlanChange(accountId: number, token: string, until: Date, now: Date): Promise<boolean>;
  /** Ends the claim if `token` still holds it. */
  releasePlanChange(accountId: number, token: string): Promise<void>;
  /** Writes the plan if it is still at `write.version` (conditional write; see PlanWrite). */
  writePlan(accountId: number, write: PlanWrite): Promise<PlanWriteResult>;
}
