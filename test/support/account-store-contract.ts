/**
 * What every AccountStore must do about plans, run against the DynamoDB store and the in-memory
 * double the use-case tests use, so the double keeps the same conditions: writes conditioned on the
 * version read, a provider event recorded with its write once, one claim on plan changes at a time.
 */
import type { AccountStore, SubscriptionLink } from '#ports/account-store';

const NOW = new Date('2026-11-15T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
const pro = { plan: 'pro' as const, pending_plan: null, plan_changes_at: null };
const proToFree = { plan: 'pro' as const, pending_plan: 'free' as const, plan_changes_at: '2026-12-01T00:00:00.000Z' };
const link: SubscriptionLink = { provider: 'stripe', customer_id: 'cus_1', subscription_id: 'sub_1' };

export function accountStoreContract(stores: () => { accounts: AccountStore }): void {
  describe('the account store', () => {
    test('a new account is on its plan with nothing waiting, at plan version 0 and with no subscription', async () => {
      const { accounts } = stores();
      const account = await accounts.create('Acme', 'free', NOW);
      expect(account).toEqual({ id: account.id, name: 'Acme', plan: 'free', pending_plan: null, plan_changes_at: null, created_at: NOW.toISOString() });
      expect(await accounts.get(account.id)).toEqual(account);
      expect(await accounts.planRecord(account.id)).toEqual({ state: { plan: 'free', pending_plan: null, plan_changes_at: null }, version: 0, subscription: null });
      expect(await accounts.planRecord(account.id + 100_000)).toBeUndefined();
    });

    test('a plan write from the version read moves it on; a write from an older version is stale and changes nothing', async () => {
      const { accounts } = stores();
      const { id } = await accounts.create('Acme', 'free', NOW);
      expect(await accounts.writePlan(id, { version: 0, state: pro })).toBe('written');
      expect(await accounts.writePlan(id, { version: 0, state: { ...pro, plan: 'business' } })).toBe('stale');
      expect(await accounts.writePlan(id, { version: 1, state: proToFree })).toBe('written');
      expect(await accounts.planRecord(id)).toEqual({ state: proToFree, version: 2, subscription: null });
      expect(await accounts.get(id)).toMatchObject(proToFree);
      expect(await accounts.writePlan(id + 100_000, { version: 0, state: pro })).toBe('stale');
    });

    test('of concurrent writes from one version exactly one is written', async () => {
      const { accounts } = stores();
      const { id } = await accounts.create('Acme', 'free', NOW);
      const plans = ['starter', 'pro', 'business', 'starter', 'pro'] as const;
      const results = await Promise.all(plans.map((plan) => accounts.writePlan(id, { version: 0, state: { plan, pending_plan: null, plan_changes_at: null } })));
      expect(results.filter((r) => r === 'written')).toHaveLength(1);
      const winner = plans[results.indexOf('written')];
      expect(await accounts.planRecord(id)).toMatchObject({ state: { plan: winner }, version: 1 });
    });

    test('a subscription link is set with a write, kept by writes that leave it out, and removed with null', async () => {
      const { accounts } = stores();
      const { id } = await accounts.create('Acme', 'free', NOW);
      await accounts.writePlan(id, { version: 0, state: pro, subscription: link });
      await accounts.writePlan(id, { version: 1, state: proToFree });
      expect((await accounts.planRecord(id))?.subscription).toEqual(link);
      await accounts.writePlan(id, { version: 2, state: pro, subscription: null });
      expect((await accounts.planRecord(id))?.subscription).toBeNull();
    });

    test('a provider event is recorded with its write: naming it again is a duplicate that writes nothing, whatever the version', async () => {
      const { accounts } = stores();
      const { id } = await accounts.create('Acme', 'free', NOW);
      expect(await accounts.writePlan(id, { version: 0, state: pro, subscription: link, eventId: 'evt_1' })).toBe('written');
      expect(await accounts.writePlan(id, { version: 1, state: { ...pro, plan: 'business' }, eventId: 'evt_1' })).toBe('duplicate');
      expect(await accounts.writePlan(id, { version: 0, state: { ...pro, plan: 'business' }, eventId: 'evt_1' })).toBe('duplicate');
      expect(await accounts.planRecord(id)).toEqual({ state: pro, version: 1, subscription: link });
      expect(await accounts.writePlan(id, { version: 1, state: proToFree, eventId: 'evt_2' })).toBe('written');
      // A stale write records nothing: the event can still be applied once its write is decided again.
      expect(await accounts.writePlan(id, { version: 1, state: pro, eventId: 'evt_3' })).toBe('stale');
      expect(await accounts.writePlan(id, { version: 2, state: pro, eventId: 'evt_3' })).toBe('written');
    });

    test('the same event delivered twice at once is written once', async () => {
      const { accounts } = stores();
      const { id } = await accounts.create('Acme', 'free', NOW);
      const results = await Promise.all([1, 2, 3].map(() => accounts.writePlan(id, { version: 0, state: pro, eventId: 'evt_race' })));
      expect(results.filter((r) => r === 'written')).toHaveLength(1);
      expect(results.filter((r) => r === 'written').length + results.filter((r) => r === 'duplicate' || r === 'stale').length).toBe(3);
      expect((await accounts.planRecord(id))?.version).toBe(1);
    });

    test('one claim on plan changes at a time: another waits for its release or its expiry; a wrong token releases nothing', async () => {
      const { accounts } = stores();
      const { id } = await accounts.create('Acme', 'free', NOW);
      expect(await accounts.claimPlanChange(id, 'a', later(60_000), NOW)).toBe(true);
      expect(await accounts.claimPlanChange(id, 'b', later(60_000), later(1_000))).toBe(false);
      await accounts.releasePlanChange(id, 'b');
      expect(await accounts.claimPlanChange(id, 'b', later(60_000), later(2_000))).toBe(false);
      await accounts.releasePlanChange(id, 'a');
      expect(await accounts.claimPlanChange(id, 'b', later(60_000), later(3_000))).toBe(true);
      // b's claim lapses unreleased (its request died): the next change may go on after it.
      expect(await accounts.claimPlanChange(id, 'c', later(120_000), later(60_000))).toBe(true);
      // A claim does not stop plan writes: provider events land while a change is under way.
      expect(await accounts.writePlan(id, { version: 0, state: pro })).toBe('written');
      expect(await accounts.claimPlanChange(id + 100_000, 'd', later(60_000), NOW)).toBe(false);
    });

    test('of concurrent claims exactly one holds', async () => {
      const { accounts } = stores();
      const { id } = await accounts.create('Acme', 'free', NOW);
      const held = await Promise.all(['a', 'b', 'c', 'd'].map((token) => accounts.claimPlanChange(id, token, later(60_000), NOW)));
      expect(held.filter(Boolean)).toHaveLength(1);
    });
  });
}
