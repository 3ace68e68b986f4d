/**
 * Scale: what a list call costs as an account grows. Accounts of 20, 5,000 and 50,000 products are
 * filled, then GET /products?page=1 and the last page are timed through the local API, and the
 * DynamoDB read units of one list call are taken from `ReturnConsumedCapacity` (the adapter called in
 * process, so only the list's own reads count, not the key lookup or the rate-limit write). The
 * old way (COUNT over the collection, earlier pages skipped item by item) is measured on the same
 * data beside it. Ratios are against the 20-product account.
 *
 * Products go in through POST /products (the stack runs with a raised request limit) up to
 * `apiFillMax` per account; the rest of a bigger account is written in batches and counted by the
 * operator's recount, which is what an account of that size looks like after `counters recount`.
 */
import pLimit from 'p-limit';
import { fmt, flag, median, type SectionResult, type Table, type Target, type SectionOptions } from './report';
import type { LocalStack } from '#local/runtime';
import type { DynamoTable } from '#adapters/dynamodb/table';
import { benchAccount, onLocalStack } from './local-stack';

export const SCALE_DEFAULTS = { sizes: [20, 5000, 50_000], apiFillMax: 5000, perPage: 20, samples: 25 } as const;
export type ScaleOptions = SectionOptions<typeof SCALE_DEFAULTS>;
const SCALE_TARGETS = { firstPageRatio: 1.5, lastOverFirst: 2, readUnitsRatio: 1.5 } as const;

const FILL_CONCURRENCY = 8;

interface Measured {
  size: number;
  viaApi: number;
  fillS: number;
  firstMs: number;
  lastMs: number;
  lastPage: number;
  firstRu: number;
  lastRu: number;
  /** The page in the middle: the most block counts a page reads. */
  middleRu: number;
  legacyFirstRu: number;
  legacyLastRu: number;
  legacyFirstMs: number;
  legacyLastMs: number;
}

export async function runScale(options: ScaleOptions): Promise<SectionResult> {
  const { log } = options;
  return onLocalStack('scale', { rateLimitPerMinute: 1_000_000, log: (line) => log(`stack: ${line}`) }, async ({ stack }) => {
    const filled: Filled[] = [];
    for (const size of options.sizes) filled.push(await fillAccount(stack, size, options));
    // Measured after every account is filled, in rounds across the accounts: none is favoured by a warmer stack or a quieter moment.
    const samples = await timeLists(stack.apiUrl, filled, options);
    const measured: Measured[] = [];
    for (const [i, { key: _key, ...f }] of filled.entries()) measured.push({ ...f, ...samples[i]!, ...(await readUnitsOf(stack.table, filled[i]!, options)) });
    return summarise(measured, options);
  });
}

interface Filled {
  size: number;
  accountId: number;
  key: string;
  viaApi: number;
  fillS: number;
  lastPage: number;
}

async function fillAccount(stack: LocalStack, size: number, o: ScaleOptions): Promise<Filled> {
  const { accountId, key } = await benchAccount(stack, `scale-${size}`, 'pro');
  const started = Date.now();
  const viaApi = Math.min(size, o.apiFillMax);
  await fillThroughApi(stack.apiUrl, key, viaApi);
  if (size > viaApi) await fillInBatches(stack.table, accountId, size - viaApi);
  const fillS = (Date.now() - started) / 1000;
  o.log(`${size} products in ${fmt(fillS)} s (${viaApi} through the API${size > viaApi ? `, ${size - viaApi} in batches + recount` : ''})`);
  return { size, accountId, key, viaApi, fillS, lastPage: Math.ceil(size / o.perPage) };
}

async function timeLists(apiUrl: string, filled: Filled[], o: ScaleOptions): Promise<{ firstMs: number; lastMs: number }[]> {
  const get = (f: Filled, page: number) => timedGet(`${apiUrl}/products?page=${page}&per_page=${o.perPage}`, f.key, f.size);
  const first: number[][] = filled.map(() => []);
  const last: number[][] = filled.map(() => []);
  for (let round = -2; round < o.samples; round++) {
    for (const [i, f] of filled.entries()) {
      const [a, b] = [await get(f, 1), await get(f, f.lastPage)];
      // Rounds below zero warm the stack up and are not kept.
      if (round >= 0) {
        first[i]!.push(a);
        last[i]!.push(b);
      }
    }
  }
  return filled.map((_, i) => ({ firstMs: median(first[i]!), lastMs: median(last[i]!) }));
}

async function readUnitsOf(table: DynamoTable, f: Filled, o: ScaleOptions) {
  const { DynamoProductStore } = await import('#adapters/dynamodb/products');
  const products = new DynamoProductStore(table);
  const { queryPage } = await import('#adapters/dynamodb/pagination');
  const { keys } = await import('#adapters/dynamodb/keys');
  const legacy = (page: number) => queryPage(table, keys.accountPartition(f.accountId), keys.productPrefix, page, o.perPage);
  const current = (page: number) => products.list(f.accountId, page, o.perPage);
  const legacyFirst = await readUnits(table, () => legacy(1));
  const legacyLast = await readUnits(table, () => legacy(f.lastPage));
  return {
    firstRu: (await readUnits(table, () => current(1))).units,
    lastRu: (await readUnits(table, () => current(f.lastPage))).units,
    middleRu: (await readUnits(table, () => current(Math.ceil(f.lastPage / 2)))).units,
    legacyFirstRu: legacyFirst.units,
    legacyLastRu: legacyLast.units,
    legacyFirstMs: legacyFirst.ms,
    legacyLastMs: legacyLast.ms,
  };
}

async function timedGet(url: string, key: string, size: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { meta?: { total?: number } };
  const ms = performance.now() - started;
  if (res.status !== 200 || body.meta?.total !== size) throw new Error(`GET ${url}: ${res.status}, total ${body.meta?.total} (expected ${size})`);
  return ms;
}

async function fillThroughApi(apiUrl: string, key: string, count: number): Promise<void> {
  await pLimit(FILL_CONCURRENCY).map(Array.from({ length: count }, (_, i) => i), async (i) => {
    const res = await fetch(`${apiUrl}/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Scale product ${i}`, description: 'A product the scale benchmark lists.' }),
    });
    if (res.status !== 201) throw new Error(`POST /products answered ${res.status}: ${await res.text()}`);
  });
}

/** The same items POST /products stores, 25 to a batch, then the operator's recount over them. */
async function fillInBatches(table: DynamoTable, accountId: number, count: number): Promise<void> {
  const { BatchWriteCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { keys } = await import('#adapters/dynamodb/keys');
  const { recountAccount } = await import('#admin/recount');
  const { DynamoCollections } = await import('#adapters/dynamodb/collection-counter');
  const reserved = await table.client.send(
    new UpdateCommand({
      TableName: table.name,
      Key: keys.counter('product'),
      UpdateExpression: 'ADD #v :n',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':n': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const firstId = Number(reserved.Attributes?.value) - count + 1;
  const now = new Date().toISOString();
  const batches: number[][] = [];
  for (let i = 0; i < count; i += 25) batches.push(Array.from({ length: Math.min(25, count - i) }, (_, j) => firstId + i + j));
  await pLimit(FILL_CONCURRENCY).map(batches, async (ids) => {
    let pending: unknown[] = ids.map((id) => ({
      PutRequest: {
        Item: {
          ...keys.product(accountId, id),
          type: 'product',
          ...{ id, account_id: accountId, name: `Scale product ${id}`, description: 'A product the scale benchmark lists.', demo: null },
          created_at: now,
          updated_at: now,
        },
      },
    }));
    while (pending.length) {
      const out = await table.client.send(new BatchWriteCommand({ RequestItems: { [table.name]: pending as never } }));
      pending = out.UnprocessedItems?.[table.name] ?? [];
    }
  });
  await recountAccount({ collections: new DynamoCollections(table) }, accountId, ['products']);
}

/** Read units DynamoDB reports for everything `call` sends, and its wall time. */
async function readUnits(table: DynamoTable, call: () => Promise<unknown>): Promise<{ units: number; ms: number }> {
  const { client } = table;
  let units = 0;
  const name = 'benchConsumedCapacity';
  client.middlewareStack.add(
    (next) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const out = await next(args);
      const consumed = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity;
      units += consumed?.CapacityUnits ?? 0;
      return out;
    },
    { step: 'initialize', name },
  );
  try {
    const started = performance.now();
    await call();
    return { units, ms: performance.now() - started };
  } finally {
    client.middlewareStack.remove(name);
  }
}

function summarise(measured: Measured[], o: ScaleOptions): SectionResult {
  const base = measured[0]!;
  const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);
  const biggest = measured.at(-1)!;
  const mid = measured.find((m) => m.size === 5000) ?? biggest;
  const targets: Target[] = [
    { what: `first page at ${mid.size} / at ${base.size} (latency)`, value: ratio(mid.firstMs, base.firstMs), max: SCALE_TARGETS.firstPageRatio, unit: 'x' },
    ...measured.map((m) => ({ what: `last page / first page at ${m.size} (latency)`, value: ratio(m.lastMs, m.firstMs), max: SCALE_TARGETS.lastOverFirst, unit: 'x' })),
    { what: `read units per first-page call at ${biggest.size} / at ${base.size}`, value: ratio(biggest.firstRu, base.firstRu), max: SCALE_TARGETS.readUnitsRatio, unit: 'x' },
    { what: `read units per last-page call at ${biggest.size} / at ${base.size}`, value: ratio(biggest.lastRu, base.lastRu), max: SCALE_TARGETS.readUnitsRatio, unit: 'x' },
  ];
  const byWhat = new Map(targets.map((t) => [t.what, t]));
  const latency: Table = {
    title: `GET /products?per_page=${o.perPage} through the local API, median of ${o.samples}`,
    head: ['products', 'first page ms', 'x 20-item', 'last page', 'last page ms', 'last / first', 'flag'],
    rows: measured.map((m) => {
      const t = byWhat.get(`last page / first page at ${m.size} (latency)`)!;
      return [String(m.size), fmt(m.firstMs), fmt(ratio(m.firstMs, base.firstMs), 2), String(m.lastPage), fmt(m.lastMs), fmt(t.value, 2), flag(t)];
    }),
  };
  const capacity: Table = {
    title: 'DynamoDB read units per list call (ReturnConsumedCapacity), counter + blocks vs the old COUNT + skip',
    head: ['products', 'first page RU', 'last page RU', 'middle page RU', 'x 20-item (first / last)', 'old: first RU', 'old: last RU', 'old: last page ms'],
    rows: measured.map((m) => [
      String(m.size),
      fmt(m.firstRu, 1),
      fmt(m.lastRu, 1),
      fmt(m.middleRu, 1),
      `${fmt(ratio(m.firstRu, base.firstRu), 2)} / ${fmt(ratio(m.lastRu, base.lastRu), 2)}`,
      fmt(m.legacyFirstRu, 1),
      fmt(m.legacyLastRu, 1),
      fmt(m.legacyLastMs, 0),
    ]),
  };
  const notes = measured
    .filter((m) => m.size > m.viaApi)
    .map((m) => `${m.size} products: ${m.viaApi} through POST /products, ${m.size - m.viaApi} written in batches and counted by \`counters recount\` (${fmt(m.fillS)} s in all).`);
  notes.push('The old way is the COUNT + key-skip pager, still used for collections never counted, measured on the same data in process.');
  return { tables: [latency, capacity], targets, notes, data: { measured } };
}
