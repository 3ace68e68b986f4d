/**
 * Items written before the in-flight sets were sharded carry them in one gsi1 partition per set (a
 * local stack's data dir keeps them across versions; so does the table on AWS). Readers read them
 * with the shards, and the next write that moves such an item's index key moves it to its shard or
 * out of the set: nothing is migrated ahead of time.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoJobStore } from '#adapters/dynamodb/jobs';
import { DynamoAllowanceLedger } from '#adapters/dynamodb/allowance-ledger';
import { DynamoWebhookStore } from '#adapters/dynamodb/webhooks';
import { keys, padId } from '#adapters/dynamodb/keys';
import { newJob } from '#domain/job-execution';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { eventOf } from '#test-support/webhook-store-contract';
import { NOW, promptRequest } from '#test-support/video-jobs';

let t: TestTable;
let jobs: DynamoJobStore;
let ledger: DynamoAllowanceLedger;
let webhooks: DynamoWebhookStore;
beforeAll(async () => {
  t = await startTestTable();
  jobs = new DynamoJobStore(t.table);
  ledger = new DynamoAllowanceLedger(t.table);
  webhooks = new DynamoWebhookStore(t.table);
});
afterAll(() => t?.stop());

const put = (Item: Record<string, unknown>) => t.table.client.send(new PutCommand({ TableName: t.table.name, Item }));
const read = async (key: { pk: string; sk: string }) => (await t.table.client.send(new GetCommand({ TableName: t.table.name, Key: key, ConsistentRead: true }))).Item!;
const HOUR = 3600_000;

/** A job in flight as the unsharded version wrote it. */
async function legacyJob(accountId: number, jobId: number, changes: Record<string, unknown> = {}) {
  const job = { ...newJob(accountId, jobId, promptRequest(1), null, 7, NOW), ...changes };
  await put({ ...keys.job(accountId, jobId), type: 'job', gsi1pk: 'ACTIVE_JOBS', gsi1sk: `${padId(jobId)}#${accountId}`, ...job });
  return job;
}

describe('jobs in flight written before the shards', () => {
  test('are listed with the others, and leave the set when they end', async () => {
    await legacyJob(71, 7001);
    expect((await jobs.listActive()).filter((ref) => ref.accountId === 71)).toEqual([{ accountId: 71, jobId: 7001 }]);
    await jobs.update(71, 7001, { status: 'failed', stage: 'failed' });
    expect((await jobs.listActive()).filter((ref) => ref.accountId === 71)).toEqual([]);
    expect(await read(keys.job(71, 7001))).not.toHaveProperty('gsi1pk');
  });

  test('move to their shard on the first write that changes what the sweeper watches', async () => {
    await legacyJob(72, 7002);
    await jobs.update(72, 7002, { status: 'processing', stage: 'preparing', handed_decision: null });
    const item = await read(keys.job(72, 7002));
    expect(item).not.toHaveProperty('gsi1pk');
    expect(item.gsi2pk).toMatch(/^ACTIVE_JOBS#\d{2}$/);
    expect((await jobs.listActive()).filter((ref) => ref.accountId === 72)).toEqual([{ accountId: 72, jobId: 7002 }]);
  });

  test('are all candidates for the sweeper, which moves each to its shard with the watch its record calls for', async () => {
    await legacyJob(73, 7003, { status: 'preview_ready', stage: 'awaiting_approval' });
    const sweep = { unstartedBefore: new Date(NOW.getTime() + HOUR), handedBefore: new Date(NOW.getTime() + HOUR) };
    const found = [];
    for await (const candidate of jobs.sweepCandidates(sweep)) if (candidate.accountId === 73) found.push(candidate);
    expect(found).toEqual([{ accountId: 73, jobId: 7003, mark: 'legacy' }]);
    expect(await jobs.quiet(found[0]!, (await jobs.get(73, 7003))!)).toBe(true);
    const after = [];
    for await (const candidate of jobs.sweepCandidates(sweep)) if (candidate.accountId === 73) after.push(candidate);
    expect(after).toEqual([]);
    expect((await jobs.listActive()).filter((ref) => ref.accountId === 73)).toEqual([{ accountId: 73, jobId: 7003 }]);
  });

  test('one never started keeps its watch when the sweeper moves it, so a later sweep still starts it', async () => {
    await legacyJob(74, 7004);
    const early = { unstartedBefore: new Date(NOW.getTime() - HOUR), handedBefore: new Date(NOW.getTime() - HOUR) };
    const found = [];
    for await (const candidate of jobs.sweepCandidates(early)) if (candidate.accountId === 74) found.push(candidate);
    expect(await jobs.quiet(found[0]!, (await jobs.get(74, 7004))!)).toBe(true);
    const late = { unstartedBefore: new Date(NOW.getTime() + HOUR), handedBefore: new Date(NOW.getTime() + HOUR) };
    const again = [];
    for await (const candidate of jobs.sweepCandidates(late)) if (candidate.accountId === 74) again.push(candidate);
    expect(again).toEqual([{ accountId: 74, jobId: 7004, mark: expect.stringMatching(/^U#/) }]);
  });
});

test('a unit reserved before the shards is found by the sweep and leaves the set when settled', async () => {
  const ref = { accountId: 75, jobId: 7005, chargeNumber: 1 };
  const at = '2020-03-01T00:00:00.000Z';
  await put({ pk: 'ACCOUNT#75', sk: 'ALLOWANCE#2020-03', type: 'allowance_period', used: 0, reserved: 1, committed: 1 });
  await put({ ...keys.allowanceEntry(75, 7005, 1), gsi1pk: 'RESERVED_UNITS', gsi1sk: `${at}#75#7005#1`, type: 'allowance_entry', account_id: 75, job_id: 7005, charge_number: 1, period: '2020-03', state: 'reserved', reserved_at: at });
  const found = [];
  for await (const unit of ledger.reservedBefore(new Date('2021-01-01T00:00:00Z'))) if (unit.accountId === 75) found.push(unit);
  expect(found).toEqual([{ ...ref, reservedAt: at }]);
  expect(await ledger.release(ref)).toEqual({ state: 'released', changed: true });
  expect(await read(keys.allowanceEntry(75, 7005, 1))).not.toHaveProperty('gsi1pk');
});

test('an event pending before the shards is fanned out, once', async () => {
  const event = { ...eventOf(76, 'evt_legacy'), created_at: '2020-03-01T00:00:00.000Z' };
  await put({ ...keys.webhookEvent(76, event.id), gsi1pk: 'WEBHOOK_OUTBOX', gsi1sk: `${event.created_at}#${event.id}`, ...event, type: 'webhook_event', event_type: event.type });
  expect((await webhooks.pendingEvents(1000)).map((e) => e.id)).toContain('evt_legacy');
  expect(await webhooks.fanOut(event, '{}', [], NOW)).toBe(true);
  expect(await webhooks.fanOut(event, '{}', [], NOW)).toBe(false);
  expect((await webhooks.pendingEvents(1000)).map((e) => e.id)).not.toContain('evt_legacy');
});

test('a delivery due before the shards is due still, and its claim moves it to its shard', async () => {
  const due = '2020-03-01T00:00:00.000Z';
  const delivery = {
    id: 'whd_legacy', account_id: 77, endpoint_id: 'wh_legacy', event_id: 'evt_x', type: 'video.job.done', order_key: 'job-1', payload: '{}', attempt: 0,
    automatic_attempts: 0, manual_attempts: 0, attempts: [], status: 'pending', response_status: null, latency_ms: null, last_error: null,
    next_attempt_at: due, claimed_until: null, revision: 0, created_at: due, updated_at: due,
  };
  await put({ ...keys.webhookDelivery(77, 'wh_legacy', 'whd_legacy'), ...delivery, type: 'webhook_delivery', event_type: delivery.type, gsi1pk: 'WEBHOOK_DUE', gsi1sk: `${due}#whd_legacy` });
  const ref = { accountId: 77, endpointId: 'wh_legacy', deliveryId: 'whd_legacy' };
  expect(await webhooks.dueDeliveries(NOW, 1000)).toContainEqual(ref);
  expect(await webhooks.claim(ref, NOW, new Date(NOW.getTime() + 60_000))).toMatchObject({ id: 'whd_legacy' });
  const item = await read(keys.webhookDelivery(77, 'wh_legacy', 'whd_legacy'));
  expect(item).not.toHaveProperty('gsi1pk');
  expect(item.gsi2pk).toMatch(/^WEBHOOK_DUE#\d{2}$/);
  expect(await webhooks.dueDeliveries(NOW, 1000)).not.toContainEqual(ref);
});
