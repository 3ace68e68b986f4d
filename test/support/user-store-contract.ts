/**
 * What every UserStore must do, run against the DynamoDB store and the in-memory double the unit tests
 * use, so the double keeps the same conditions.
 */
import type { AccountStore } from '#ports/account-store';
import type { UserStore } from '#ports/user-store';
import type { User } from '#domain/user';
import { newPasswordReset } from '#domain/password-reset';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const record = (email: string) => ({ email, name: 'Ada', accountName: 'Ada', plan: 'free' as const, passwordHash: 'scrypt$h1', now: NOW });

async function signedUp(users: UserStore, email: string): Promise<User> {
  const made = await users.signUp(record(email));
  if (made === 'email_taken') throw new Error('the email was free');
  return made.user;
}

export function userStoreContract(stores: () => { users: UserStore; accounts: AccountStore }): void {
  describe('the user store', () => {
    test('signing up makes an account on the plan and its user, found by email with the password hash', async () => {
      const { users, accounts } = stores();
      const made = await users.signUp(record('ada@example.com'));
      if (made === 'email_taken') throw new Error('the email was free');
      expect(made.account).toEqual({ id: made.account.id, name: 'Ada', plan: 'free', pending_plan: null, plan_changes_at: null, created_at: NOW.toISOString() });
      expect(await accounts.get(made.account.id)).toEqual(made.account);
      expect(made.user).toEqual({ id: made.user.id, account_id: made.account.id, email: 'ada@example.com', name: 'Ada', created_at: NOW.toISOString() });
      expect(await users.findByEmail('ada@example.com')).toEqual({ user: made.user, password_hash: 'scrypt$h1' });
      expect(await users.get(made.account.id, made.user.id)).toEqual(made.user);
      expect(await users.get(made.account.id + 1000, made.user.id)).toBeUndefined();
      expect(await users.findByEmail('nobody@example.com')).toBeUndefined();
    });

    test('of concurrent sign-ups with one email exactly one gets it', async () => {
      const { users } = stores();
      const results = await Promise.all(Array.from({ length: 5 }, () => users.signUp(record('race@example.com'))));
      expect(results.filter((r) => r === 'email_taken')).toHaveLength(4);
    });

    test('a changed password hash is what the email then finds; an unknown user cannot be changed', async () => {
      const { users } = stores();
      const made = await users.signUp(record('grace@example.com'));
      if (made === 'email_taken') throw new Error('the email was free');
      await users.setPasswordHash(made.account.id, made.user.id, 'scrypt$h2');
      expect((await users.findByEmail('grace@example.com'))?.password_hash).toBe('scrypt$h2');
      await expect(users.setPasswordHash(made.account.id, made.user.id + 1000, 'scrypt$h3')).rejects.toThrow();
    });
  });

  describe('password resets in the user store', () => {
    test('a saved reset is found by its token hash, and nothing by another hash', async () => {
      const { users } = stores();
      const user = await signedUp(users, 'reset-found@example.com');
      const { record: reset } = newPasswordReset(user, NOW);
      await users.savePasswordReset(reset);
      expect(await users.findPasswordReset(reset.token_hash)).toEqual(reset);
      expect(await users.findPasswordReset('0'.repeat(64))).toBeUndefined();
    });

    test('a newer reset replaces the earlier one: the earlier token finds nothing and cannot be redeemed', async () => {
      const { users } = stores();
      const user = await signedUp(users, 'reset-newer@example.com');
      const older = newPasswordReset(user, NOW).record;
      const newer = newPasswordReset(user, new Date(NOW.getTime() + 60_000)).record;
      await users.savePasswordReset(older);
      await users.savePasswordReset(newer);
      expect(await users.findPasswordReset(older.token_hash)).toBeUndefined();
      expect(await users.redeemPasswordReset(older, 'scrypt$old-link')).toBe(false);
      expect((await users.findByEmail('reset-newer@example.com'))?.password_hash).toBe('scrypt$h1');
      expect(await users.findPasswordReset(newer.token_hash)).toEqual(newer);
    });

    test('redeeming sets the password and spends the reset: a second redeem is false and the token finds nothing', async () => {
      const { users } = stores();
      const user = await signedUp(users, 'reset-once@example.com');
      const { record: reset } = newPasswordReset(user, NOW);
      await users.savePasswordReset(reset);
      expect(await users.redeemPasswordReset(reset, 'scrypt$reset')).toBe(true);
      expect((await users.findByEmail('reset-once@example.com'))?.password_hash).toBe('scrypt$reset');
      expect(await users.findPasswordReset(reset.token_hash)).toBeUndefined();
      expect(await users.redeemPasswordReset(reset, 'scrypt$again')).toBe(false);
      expect((await users.findByEmail('reset-once@example.com'))?.password_hash).toBe('scrypt$reset');
    });

    test('of concurrent redeems of one reset exactly one succeeds, and its password is the one kept', async () => {
      const { users } = stores();
      const user = await signedUp(users, 'reset-race@example.com');
      const { record: reset } = newPasswordReset(user, NOW);
      await users.savePasswordReset(reset);
      const outcomes = await Promise.all(Array.from({ length: 5 }, (_, i) => users.redeemPasswordReset(reset, `scrypt$racer${i}`)));
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect((await users.findByEmail('reset-race@example.com'))?.password_hash).toBe(`scrypt$racer${outcomes.indexOf(true)}`);
    });

    test('a password set another way voids the pending reset', async () => {
      const { users } = stores();
      const user = await signedUp(users, 'reset-void@example.com');
      const { record: reset } = newPasswordReset(user, NOW);
      await users.savePasswordReset(reset);
      await users.setPasswordHash(user.account_id, user.id, 'scrypt$changed');
      expect(await users.findPasswordReset(reset.token_hash)).toBeUndefined();
      expect(await users.redeemPasswordReset(reset, 'scrypt$late')).toBe(false);
      expect((await users.findByEmail('reset-void@example.com'))?.password_hash).toBe('scrypt$changed');
    });

    test('a reset for a user that does not exist is refused', async () => {
      const { users } = stores();
      const user = await signedUp(users, 'reset-ghost@example.com');
      await expect(users.savePasswordReset(newPasswordReset({ ...user, id: user.id + 1000 }, NOW).record)).rejects.toThrow();
    });
  });
}
