/**
 * A socket's subscribe answer: what it carries must be the record as it stands once the subscription
 * exists, since a change made before then is pushed to no one.
 */
import type { Product } from '#domain/product';
import { answerUpdateMessage, openUpdateSocket, issueUpdateTicket } from '#use-cases/update-sockets';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { MemoryUpdateSocketStore } from '#test-doubles/memory/update-sockets';
import { testDependencies } from '#test-support/wiring';

const NOW = new Date('2026-11-30T10:00:00Z');
const ACCOUNT = 7;

const product: Product = {
  id: 1,
  account_id: ACCOUNT,
  name: 'Lamp',
  description: null,
  demo: { status: 'processing', original_key: `accounts/${ACCOUNT}/products/1/demo-original` },
  created_at: NOW.toISOString(),
  updated_at: NOW.toISOString(),
};

async function openSocket(updateSockets: MemoryUpdateSocketStore, products: MemoryProductStore) {
  const deps = testDependencies({ updateSockets, products, blobs: new MemoryBlobStore(), now: () => NOW, updatesUrl: () => 'ws://updates.test' });
  const { ticket } = await issueUpdateTicket(deps, ACCOUNT);
  await openUpdateSocket(deps, 'conn-1', ticket);
  return deps;
}

const subscribeTo = (id: number) => JSON.stringify({ action: 'subscribe', resource: 'product', id });

describe('subscribing a socket to a record', () => {
  test('a change made between the first read and the subscription is in the answer (it is pushed to no one)', async () => {
    const products = new MemoryProductStore();
    await products.create(product);
    const updateSockets = new MemoryUpdateSocketStore();
    // The demo settles while the subscription is being written: after the first read, before any push could reach this socket.
    const subscribe = updateSockets.subscribe.bind(updateSockets);
    updateSockets.subscribe = async (...args) => {
      const settled = await products.settleDemo(ACCOUNT, 1, { ...product.demo!, status: 'ready', key: `accounts/${ACCOUNT}/products/1/demo.mp4`, duration_s: 6 }, NOW);
      expect(settled).toBe(true);
      return subscribe(...args);
    };
    const deps = await openSocket(updateSockets, products);

    const answer = (await answerUpdateMessage(deps, 'conn-1', subscribeTo(1))) as { type: string; data: { demo_video: { status: string } } };

    expect(answer.type).toBe('subscribed');
    expect(answer.data.demo_video.status).toBe('ready');
    expect(await updateSockets.subscribers(ACCOUNT, { resource: 'product', id: 1 })).toHaveLength(1);
  });

  test('a record the scope does not hold is not found, and no subscription is written for it', async () => {
    const products = new MemoryProductStore();
    await products.create({ ...product, account_id: ACCOUNT + 1 });
    const updateSockets = new MemoryUpdateSocketStore();
    const deps = await openSocket(updateSockets, products);

    const answer = (await answerUpdateMessage(deps, 'conn-1', subscribeTo(1))) as { type: string; code?: string };

    expect(answer).toMatchObject({ type: 'error', code: 'not_found' });
    expect(await updateSockets.subscribers(ACCOUNT, { resource: 'product', id: 1 })).toHaveLength(0);
  });
});
