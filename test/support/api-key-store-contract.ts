/**
 * What every ApiKeyStore must do, run against the DynamoDB store and the in-memory double the unit
 * tests use, so the double keeps the same conditions.
 */
import { hashKey } from '#domain/api-keys';
import type { AccountStore } from '#ports/account-store';
import type { ApiKeyStore } from '#ports/api-key-store';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const after = (s: number) => new Date(T0.getTime() + s * 1000);

export function apiKeyStoreContract(stores: () => { keys: ApiKeyStore; accounts: AccountStore }): void {
  const keys = () => stores().keys;
  const newAccount = async () => (await stores().accounts.create('Acme', 'starter', T0)).id;

  describe('the API key store', () => {
    test('a key is found by the hash of its raw value, as made: named, never used, not revoked', async () => {
      const accountId = await newAccount();
      const created = await keys().create(accountId, ['read', 'write'], T0, 'CI');
      expect(created.key.startsWith(created.prefix)).toBe(true);
      expect(await keys().findByHash(hashKey(created.key))).toEqual({
        id: created.id,
        account_id: accountId,
        name: 'CI',
        prefix: created.prefix,
        scopes: ['read', 'write'],
        mode: 'live',
        created_at: T0.toISOString(),
        last_used_at: null,
        revoked_at: null,
      });
      expect(await keys().findByHash(hashKey(`${created.key}x`))).toBeUndefined();
    });

    test('a test key reads rsk_test_, is found and listed with its mode; a key made without a mode is live', async () => {
      const accountId = await newAccount();
      const test = await keys().create(accountId, ['read'], T0, 'Sandbox', 'test');
      const live = await keys().create(accountId, ['read'], T0, 'Prod');
      expect(test).toMatchObject({ mode: 'test', key: expect.stringMatching(/^rsk_test_/), prefix: expect.stringMatching(/^rsk_test_/) });
      expect((await keys().findByHash(hashKey(test.key)))?.mode).toBe('test');
      expect((await keys().findByHash(hashKey(live.key)))?.mode).toBe('live');
      expect((await keys().listOfAccount(accountId)).map((key) => [key.name, key.mode])).toEqual([
        ['Sandbox', 'test'],
        ['Prod', 'live'],
      ]);
    });

    test('a key made without a name has none', async () => {
      const created = await keys().create(await newAccount(), ['read'], T0);
      expect(await keys().findByHash(hashKey(created.key))).not.toHaveProperty('name');
    });

    test('an account that does not exist gets no key', async () => {
      await expect(keys().create(999_999_999, ['read'], T0)).rejects.toThrow();
    });

    test("an account's keys are listed oldest first, and only its own", async () => {
      const accountId = await newAccount();
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await keys().create(accountId, ['read'], after(i))).id);
      await keys().create(await newAccount(), ['read'], T0);
      expect((await keys().listOfAccount(accountId)).map((k) => k.id)).toEqual(made);
      expect(new Set(made).size).toBe(3);
    });

    test('a revoked key reads revoked at once, by hash and in the list; revoking again keeps the first time', async () => {
      const accountId = await newAccount();
      const created = await keys().create(accountId, ['read'], T0);
      expect(await keys().revoke(created.id, after(10))).toBe(true);
      expect(await keys().revoke(created.id, after(20))).toBe(true);
      expect((await keys().findByHash(hashKey(created.key)))!.revoked_at).toBe(after(10).toISOString());
      expect((await keys().listOfAccount(accountId))[0]!.revoked_at).toBe(after(10).toISOString());
      expect(await keys().revoke(999_999_999, after(10))).toBe(false);
    });

    test("a key's use is recorded at most once a minute, by hash and in the list", async () => {
      const accountId = await newAccount();
      const created = await keys().create(accountId, ['read'], T0);
      const hash = hashKey(created.key);
      await keys().recordUse((await keys().findByHash(hash))!, hash, after(5));
      await keys().recordUse((await keys().findByHash(hash))!, hash, after(30));
      expect((await keys().findByHash(hash))!.last_used_at).toBe(after(5).toISOString());
      await keys().recordUse((await keys().findByHash(hash))!, hash, after(65));
      expect((await keys().findByHash(hash))!.last_used_at).toBe(after(65).toISOString());
      expect((await keys().listOfAccount(accountId))[0]!.last_used_at).toBe(after(65).toISOString());
    });

    test('the use of a key that is not stored is refused', async () => {
      const accountId = await newAccount();
      const created = await keys().create(accountId, ['read'], T0);
      const record = (await keys().findByHash(hashKey(created.key)))!;
      await expect(keys().recordUse(record, hashKey('rs_live_not-a-stored-key'), after(5))).rejects.toThrow();
    });
  });
}
