/**
 * What every UserStore must do, run against the DynamoDB store and the in-memory double the unit tests
 * use, so the double keeps the same conditions.
 */
import type { AccountStore } from '#ports/account-store';
import type { UserStore } from '#ports/user-store';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const record = (email: string) => ({ email, name: 'Ada', accountName: 'Ada', plan: 'free' as const, passwordHash: 'scrypt$h1', now: NOW });

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
}
