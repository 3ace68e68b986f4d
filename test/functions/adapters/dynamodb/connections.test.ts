/** The connection store against DynamoDB Local: its contract (which the memory double keeps too), and connections sealed by the key-file cipher. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { fileCredentialCipher } from '#adapters/crypto/credential-cipher';
import { DynamoConnectionStore } from '#adapters/dynamodb/connections';
import { keys } from '#adapters/dynamodb/keys';
import { connectionView } from '#domain/social';
import type { Channel, ProviderName } from '#domain/social';
import type { CredentialCipher } from '#ports/credential-cipher';
import { storeConnection, type NewConnection } from '#use-cases/set-connection';
import { openCredentials } from '#use-cases/connection-credentials';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { connectionStoreContract } from '#test-support/connection-store-contract';

const API_KEY = 'ayr_live_ABCDEFGHIJKLMNOP1234';
const TIKTOK: Channel = { id: 'pk1:tiktok', platform: 'tiktok', name: 'Acme on TikTok', username: 'acme', active: true };
const YOUTUBE: Channel = { id: 'pk1:youtube', platform: 'youtube', name: 'Acme', username: null, active: true };

let table: TestTable;
let dir: string;
let store: DynamoConnectionStore;
let cipher: CredentialCipher;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rs-connections-'));
  cipher = fileCredentialCipher(join(dir, 'secrets', 'connection.key'));
  table = await startTestTable();
  store = new DynamoConnectionStore(table.table);
});
afterAll(async () => {
  await table?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const putConnection = (input: NewConnection) => storeConnection({ connections: store, cipher, now: () => new Date() }, input);
const getConnection = (accountId: number, provider: ProviderName) => store.get(accountId, provider);
async function getOpened(accountId: number, provider: ProviderName) {
  const connection = await store.get(accountId, provider);
  return connection && { connection, credentials: await openCredentials(cipher, connection) };
}
const updateChannels = (accountId: number, provider: ProviderName, generation: string, channels: Channel[], now = new Date()) =>
  store.updateChannels(accountId, provider, generation, channels, now);
const markConnectionError = (accountId: number, provider: ProviderName, generation: string, error: { code: string; message: string }) =>
  store.markError(accountId, provider, generation, error, new Date());

let nextAccount = 5000;
const freshAccount = () => nextAccount++;
const rawItem = async (accountId: number, provider: string) =>
  (await table.table.client.send(new GetCommand({ TableName: table.table.name, Key: keys.connection(accountId, provider) }))).Item!;

describe('the connection store', () => {
  test('stores the credentials sealed: the item never holds the key, and opening it needs asking', async () => {
    const accountId = freshAccount();
    const { connection, created } = await putConnection({
      accountId,
      provider: 'provider_a',
      credentials: { apiKey: API_KEY, profileKey: 'PROFILE-KEY-9' },
      channels: [TIKTOK],
    });
    expect(created).toBe(true);
    expect(connection).toMatchObject({ status: 'active', channels: [TIKTOK], key_hint: '…1234', last_error: null });

    const item = await rawItem(accountId, 'provider_a');
    expect(item).toMatchObject({ type: 'connection', sk: 'CONNECTION#provider_a', credentials: { kek: 'file', alg: 'AES-256-GCM' } });
    expect(JSON.stringify(item)).not.toContain(API_KEY);
    expect(JSON.stringify(item)).not.toContain('PROFILE-KEY-9');

    const plain = await getConnection(accountId, 'provider_a');
    expect(plain).toMatchObject({ provider: 'provider_a', channels: [TIKTOK] });
    expect(plain).not.toHaveProperty('apiKey');

    const opened = await getOpened(accountId, 'provider_a');
    expect(opened?.credentials).toEqual({ apiKey: API_KEY, profileKey: 'PROFILE-KEY-9' });
    expect(opened?.connection.channels).toEqual([TIKTOK]);
  });

  test('a second put replaces the connection (created false) with a new generation', async () => {
    const accountId = freshAccount();
    const first = await putConnection({ accountId, provider: 'provider_b', credentials: { apiKey: 'pfm_first_key' }, channels: [] });
    const second = await putConnection({ accountId, provider: 'provider_b', credentials: { apiKey: 'pfm_second_key' }, channels: [YOUTUBE] });
    expect(second.created).toBe(false);
    expect(second.connection.generation).not.toBe(first.connection.generation);
    expect((await getOpened(accountId, 'provider_b'))?.credentials).toEqual({ apiKey: 'pfm_second_key' });
  });

  test('short keys get no hint', async () => {
    const { connection } = await putConnection({ accountId: freshAccount(), provider: 'provider_b', credentials: { apiKey: 'short123' }, channels: [] });
    expect(connection.key_hint).toBeNull();
  });

  test('updateChannels stores a new listing and heals an errored connection, on the same generation only', async () => {
    const accountId = freshAccount();
    const { connection } = await putConnection({ accountId, provider: 'provider_a', credentials: { apiKey: API_KEY }, channels: [TIKTOK] });
    const errored = await markConnectionError(accountId, 'provider_a', connection.generation, { code: 'provider_refused_key', message: 'x' });
    expect(errored).toMatchObject({ status: 'error', last_error: { code: 'provider_refused_key', message: 'x', at: expect.any(String) } });

    const later = new Date(Date.parse(connection.synced_at) + 60_000);
    const updated = await updateChannels(accountId, 'provider_a', connection.generation, [YOUTUBE], later);
    expect(updated).toMatchObject({ status: 'active', last_error: null, channels: [YOUTUBE], synced_at: later.toISOString() });
    expect(updated?.connected_at).toBe(connection.connected_at);

    expect(await updateChannels(accountId, 'provider_a', 'another-generation', [TIKTOK])).toBeUndefined();
    expect(await markConnectionError(accountId, 'provider_a', 'another-generation', { code: 'c', message: 'm' })).toBeUndefined();
    expect((await getConnection(accountId, 'provider_a'))?.channels).toEqual([YOUTUBE]);
    // Nothing is created for a provider that is not connected.
    expect(await updateChannels(accountId, 'provider_b', connection.generation, [TIKTOK])).toBeUndefined();
    expect(await getConnection(accountId, 'provider_b')).toBeUndefined();
  });

  test('a sealed record copied into another account does not open there', async () => {
    const owner = freshAccount();
    const thief = freshAccount();
    await putConnection({ accountId: owner, provider: 'provider_a', credentials: { apiKey: API_KEY }, channels: [] });
    const item = await rawItem(owner, 'provider_a');
    await table.table.client.send(
      new PutCommand({ TableName: table.table.name, Item: { ...item, ...keys.connection(thief, 'provider_a'), account_id: thief } }),
    );
    await expect(getOpened(thief, 'provider_a')).rejects.toMatchObject({ name: 'CredentialCipherError', kind: 'refused' });
  });

  test('the view shows channels and health, never credentials', async () => {
    const accountId = freshAccount();
    const { connection } = await putConnection({ accountId, provider: 'provider_a', credentials: { apiKey: API_KEY, profileKey: 'PK-1' }, channels: [TIKTOK] });
    const view = connectionView(connection);
    expect(view).toEqual({
      provider: 'provider_a',
      status: 'active',
      key_hint: '…1234',
      channels: [TIKTOK],
      connected_at: connection.connected_at,
      synced_at: connection.synced_at,
      last_error: null,
    });
    expect(JSON.stringify(view)).not.toMatch(/credentials|ciphertext|generation|PK-1/);
  });
});

connectionStoreContract(() => store, 5500);
