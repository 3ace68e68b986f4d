/**
 * Accounts: the profile item of each account's partition. Its plan fields change only by a write
 * conditioned on `plan_version` (PlanWrite), so concurrent changes cannot interleave; a provider
 * event's marker is put in the same transaction, so a redelivered event writes nothing.
 */
import { GetCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Account } from '#domain/account';
import type { PlanName } from '#domain/plans';
import type { AccountStore, PlanRecord, PlanWrite, PlanWriteResult, SubscriptionLink } from '#ports/account-store';
import type { DynamoTable } from './table';
import { keys } from './keys';
import { allocateId } from './ids';
import { transact, type TransactItem } from './transactions';
import { unlessRefused } from './conditions';
import { putNewItem } from './puts';

/** Provider events are redelivered for about three days (Stripe); their markers are kept a month. */
const EVENT_MARKER_KEEP_S = 30 * 24 * 3600;

interface AccountItem {
  id: number;
  name: string;
  plan: PlanName;
  pending_plan?: PlanName | null;
  plan_changes_at?: string | null;
  created_at: string;
  plan_version?: number;
  subscription?: SubscriptionLink | null;
}

/** Accounts written before plans could change have no pending fields and version 0. */
const toAccount = (item: AccountItem): Account => ({
  id: item.id,
  name: item.name,
  plan: item.plan,
  pending_plan: item.pending_plan ?? null,
  plan_changes_at: item.plan_changes_at ?? null,
  created_at: item.created_at,
});

export class DynamoAccountStore implements AccountStore {
  constructor(private readonly table: DynamoTable) {}

  async create(name: string, plan: PlanName, now = new Date()): Promise<Account> {
    const account: Account = { id: await allocateId(this.table, 'account'), name, plan, pending_plan: null, plan_changes_at: null, created_at: now.toISOString() };
    await putNewItem(this.table, { ...keys.account(account.id), type: 'account', ...account });
    return account;
  }

  async get(accountId: number): Promise<Account | undefined> {
    const item = await this.item(accountId, false);
    return item && toAccount(item);
  }

  async planRecord(accountId: number): Promise<PlanRecord | undefined> {
    const item = await this.item(accountId, true);
    if (!item) return undefined;
    const { plan, pending_plan, plan_changes_at } = toAccount(item);
    return { state: { plan, pending_plan, plan_changes_at }, version: item.plan_version ?? 0, subscription: item.subscription ?? null };
  }

  claimPlanChange(accountId: number, token: string, until: Date, now: Date): Promise<boolean> {
    return this.updateClaim(accountId, {
      UpdateExpression: 'SET plan_claim = :claim',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(plan_claim) OR plan_claim.#until <= :now)',
      ExpressionAttributeNames: { '#until': 'until' },
      ExpressionAttributeValues: { ':claim': { token, until: until.getTime() }, ':now': now.getTime() },
    });
  }

  async releasePlanChange(accountId: number, token: string): Promise<void> {
    // Refused when expired and taken by another change, or already gone: nothing of ours to end.
    await this.updateClaim(accountId, {
      UpdateExpression: 'REMOVE plan_claim',
      ConditionExpression: 'plan_claim.#token = :token',
      ExpressionAttributeNames: { '#token': 'token' },
      ExpressionAttributeValues: { ':token': token },
    });
  }

  /** Moves the plan-change claim on the account item; false when the update's condition refused it. */
  private async updateClaim(accountId: number, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>): Promise<boolean> {
    const written = await unlessRefused(this.table.client.send(new UpdateCommand({ TableName: this.table.name, Key: keys.account(accountId), ...update })));
    return written !== undefined;
  }

  async writePlan(accountId: number, write: PlanWrite): Promise<PlanWriteResult> {
    const { state } = write;
    const sets = ['#plan = :plan', 'pending_plan = :pending', 'plan_changes_at = :at', 'plan_version = :next'];
    const values: Record<string, unknown> = {
      ':plan': state.plan,
      ':pending': state.pending_plan,
      ':at': state.plan_changes_at,
      ':next': write.version + 1,
    };
    if (write.subscription !== undefined) {
      sets.push('subscription = :subscription');
      values[':subscription'] = write.subscription;
    }
    // Version 0 is an account no plan write has touched yet (it has no plan_version at all).
    const versionCondition = write.version === 0 ? 'attribute_not_exists(plan_version)' : 'plan_version = :version';
    if (write.version !== 0) values[':version'] = write.version;
    const update: TransactItem = {
      Update: {
        TableName: this.table.name,
        Key: keys.account(accountId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: `attribute_exists(pk) AND ${versionCondition}`,
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: values,
      },
    };
    if (write.eventId === undefined) {
      const outcome = await transact([update], this.table.client);
      return outcome.written ? 'written' : 'stale';
    }
    const marker: TransactItem = {
      Put: {
        TableName: this.table.name,
        Item: {
          ...keys.billingEvent(accountId, write.eventId),
          type: 'billing_event',
          event_id: write.eventId,
          expires_at: Math.ceil(Date.now() / 1000) + EVENT_MARKER_KEEP_S,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
    const outcome = await transact([marker, update], this.table.client);
    if (outcome.written) return 'written';
    return outcome.failed.includes(0) ? 'duplicate' : 'stale';
  }

  private async item(accountId: number, consistent: boolean): Promise<AccountItem | undefined> {
    const out = await this.table.client.send(new GetCommand({ TableName: this.table.name, Key: keys.account(accountId), ConsistentRead: consistent }));
    return out.Item as AccountItem | undefined;
  }
}
