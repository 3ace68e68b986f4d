/**
 * The webhook store on DynamoDB Local: the store contract (webhook-store-contract.ts), and events
 * written with a state change exist exactly when the change does, which the local outbox watcher sees.
 */
import { DynamoWebhookStore } from '#adapters/dynamodb/webhooks';
import { DynamoAvatarStore } from '#adapters/dynamodb/avatars';
import { watchOutboxInserts } from '#adapters/dynamodb/webhook-outbox';
import type { WebhookEvent } from '#domain/webhooks';
import { smallIndexPages, startTestTable, type TestTable } from '#test-support/dynamodb';
import { eventOf, webhookStoreContract } from '#test-support/webhook-store-contract';

let table: TestTable;
let store: DynamoWebhookStore;
beforeAll(async () => {
  table = await startTestTable();
  // Two items a page: the in-flight sets' readers follow every shard's pages.
  smallIndexPages(table.table, 2);
  store = new DynamoWebhookStore(table.table);
});
afterAll(() => table?.stop());

webhookStoreContract(() => store, 100);

const NOW = new Date('2026-11-28T12:00:00.000Z');
let nextAccount = 900;

/** A processing avatar, its settle outcome and an event for that settle. */
async function processingAvatar() {
  const account = nextAccount++;
  const avatars = new DynamoAvatarStore(table.table);
  const id = await avatars.newAvatarId();
  await avatars.create(
    { id, account_id: account, source: 'prompt', status: 'processing', prompt: 'a smiling person', image_key: null, width: null, height: null, engine: 'local', seed: 1, error: null, created_at: NOW.toISOString(), updated_at: NOW.toISOString() } as never,
    5,
  );
  const outcome = { status: 'ready', image_key: 'k', width: 512, height: 512, engine: 'local', seed: 1, error: null } as const;
  const event = { ...eventOf(account, `evt_avatar${id}`), type: 'avatar.ready', subject: { kind: 'avatar', id } } as WebhookEvent;
  return { avatars, account, id, outcome, event };
}

test('a state change that carries an event writes both or neither', async () => {
  const { avatars, account, id, outcome, event } = await processingAvatar();
  expect(await avatars.settle(account, id, outcome, NOW, event)).toMatchObject({ status: 'ready' });
  // A second settle finds it no longer processing: no change, and its event is not written.
  const again = { ...event, id: `evt_avatar${id}_again` };
  expect(await avatars.settle(account, id, outcome, NOW, again)).toBeUndefined();
  const pending = (await store.pendingEvents(1000)).map((e) => e.id);
  expect(pending).toContain(event.id);
  expect(pending).not.toContain(again.id);
});

test('the outbox watcher (the local stream) sees each write that put an event, and no other', async () => {
  let seen = 0;
  watchOutboxInserts(table.table, () => seen++);
  try {
    const { avatars, account, id, outcome, event } = await processingAvatar();
    expect(seen).toBe(0);
    await avatars.settle(account, id, outcome, NOW, event);
    expect(seen).toBe(1);
    // Refused by its condition: the event was not written, so nothing is woken.
    expect(await avatars.settle(account, id, outcome, NOW, { ...event, id: `evt_avatar${id}_again` })).toBeUndefined();
    expect(seen).toBe(1);
  } finally {
    table.table.client.middlewareStack.remove('watchOutboxInserts');
  }
});
